/** The token of an `Authorization: Bearer …` header, or undefined when absent or of another scheme. */
export function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The key of an `X-API-Key` header, the way the Honeypot SDKs send it. Accepted on POST /events only (where it
 * must hold a write key), so backends on those SDKs can switch to Vigil by changing the URL and the key.
 */
export function parseApiKeyHeader(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value && !/\s/.test(value) ? value : undefined;
}
