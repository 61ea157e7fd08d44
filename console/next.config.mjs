/** @type {import('next').NextConfig} */
const nextConfig = {
  // The console ships no telemetry and fetches nothing at build time.
  reactStrictMode: true,
  // The live feed's graphql-ws client runs on Node's `ws`, which is loaded as it is rather than bundled.
  serverExternalPackages: ['ws'],
};
export default nextConfig;
