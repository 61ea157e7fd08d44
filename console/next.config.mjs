/** @type {import('next').NextConfig} */
const nextConfig = {
  // The console ships no telemetry and fetches nothing at build time.
  reactStrictMode: true,
};
export default nextConfig;
