/**
 * The origin the browser used, from the Host header (or X-Forwarded-Host/-Proto behind a proxy). Next's own
 * request URL names the server's bind address as `localhost`, which would move a user of 127.0.0.1 to another
 * origin, where the session cookie does not exist.
 */
export function requestOrigin(headers: Headers, fallback: string): string {
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
  if (!host) return fallback;
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || new URL(fallback).protocol.replace(':', '');
  return `${proto}://${host}`;
}
