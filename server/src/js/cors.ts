/**
 * Origin policy of the /js endpoints. Entries: an exact origin ("https://shop.example"), a subdomain wildcard
 * ("https://*.example.com", which does not match example.com itself), or "*" (any origin; development only).
 */
export interface CorsPolicy {
  allowedOrigins: readonly string[];
}

export function isOriginAllowed(origin: string | null | undefined, policy: CorsPolicy): boolean {
  if (!origin || origin === 'null') return false;
  const normalized = origin.toLowerCase().replace(/\/+$/, '');
  return policy.allowedOrigins.some((entry) => {
    const e = entry.toLowerCase().replace(/\/+$/, '');
    if (e === '*') return true;
    if (!e.includes('*')) return e === normalized;
    const m = /^(https?):\/\/\*\.([^/*]+)$/.exec(e);
    if (!m) return false;
    const [, scheme, suffix] = m;
    const u = /^(https?):\/\/([^/]+)$/.exec(normalized);
    return !!u && u[1] === scheme && (u[2] ?? '').endsWith(`.${suffix}`);
  });
}

/**
 * Headers for a response to an allowed origin (the request origin echoed, never "*", plus Vary: Origin), or null
 * when the origin is not allowed (then send no CORS headers: the browser blocks the page from reading the answer).
 */
export function corsHeaders(origin: string | null | undefined, policy: CorsPolicy, preflight = false): Record<string, string> | null {
  if (!origin || !isOriginAllowed(origin, policy)) return null;
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-expose-headers': 'Retry-After',
  };
  if (preflight) {
    headers['access-control-allow-methods'] = 'POST, OPTIONS';
    headers['access-control-allow-headers'] = 'content-type, authorization';
    headers['access-control-max-age'] = '600';
  }
  return headers;
}

export type JsCredential = { kind: 'none' } | { kind: 'client_key'; key: string } | { kind: 'write_key' } | { kind: 'malformed' };

/** What the Authorization header carries. A write key here is refused (403): it must never be in a page. */
export function classifyJsAuthorization(header: string | null | undefined): JsCredential {
  if (header === undefined || header === null || header === '') return { kind: 'none' };
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!m) return { kind: 'malformed' };
  const key = m[1] as string;
  if (key.startsWith('vigil_wk_')) return { kind: 'write_key' };
  if (key.startsWith('vigil_ck_')) return { kind: 'client_key', key };
  return { kind: 'malformed' };
}
