import { fromBase64url, hmacSha256, safeEqual } from '../crypto.js';
import { checkKey, TOKEN_PREFIX } from './sign.js';
import type { BrowserTokenClaims, KeyRing, ReplayCounter, VerifyResult } from './types.js';

export interface VerifyOptions {
  keys: KeyRing;
  /** ms since epoch */
  now: number;
  /** Tolerated clock difference between servers, seconds (default 30). */
  clockSkewSeconds?: number;
}

export interface VerifyWithReplayOptions extends VerifyOptions {
  replay: ReplayCounter;
  /** How many times one token may be presented (default 5): a login plus a few follow-up events. */
  maxUses?: number;
}

export const DEFAULT_MAX_USES = 5;
const MAX_TOKEN_CHARS = 2048;

/** Checks format, key, signature and time. Outcomes are data; only a bad key ring throws. */
export function verifyBrowserTokenSignature(token: unknown, options: VerifyOptions): VerifyResult {
  const keys = [options.keys.current, ...(options.keys.previous ?? [])].map(checkKey);
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX) return { ok: false, reason: 'malformed' };
  const [, payload = '', signature = ''] = parts;
  const payloadBytes = fromBase64url(payload);
  const signatureBytes = fromBase64url(signature);
  if (!payloadBytes || !signatureBytes) return { ok: false, reason: 'malformed' };
  const claims = parseClaims(payloadBytes.toString('utf8'));
  if (!claims) return { ok: false, reason: 'malformed' };
  const key = keys.find((k) => k.kid === claims.kid);
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (!safeEqual(hmacSha256(key.secret, `${TOKEN_PREFIX}.${payload}`), signatureBytes)) return { ok: false, reason: 'bad_signature' };
  const now = Math.floor(options.now / 1000);
  const skew = options.clockSkewSeconds ?? 30;
  if (claims.iat > now + skew) return { ok: false, reason: 'not_yet_valid', claims };
  if (claims.exp + skew <= now) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims, uses: null };
}

/** Full check: signature and time first (a forged token never touches the counter), then replay counting. */
export async function verifyBrowserToken(token: unknown, options: VerifyWithReplayOptions): Promise<VerifyResult> {
  const checked = verifyBrowserTokenSignature(token, options);
  if (!checked.ok) return checked;
  const uses = await options.replay.use(checked.claims.jti, (checked.claims.exp + (options.clockSkewSeconds ?? 30)) * 1000);
  if (uses > (options.maxUses ?? DEFAULT_MAX_USES)) return { ok: false, reason: 'replayed', claims: checked.claims, uses };
  return { ok: true, claims: checked.claims, uses };
}

function parseClaims(text: string): BrowserTokenClaims | null {
  let c: unknown;
  try {
    c = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof c !== 'object' || c === null) return null;
  const o = c as Record<string, unknown>;
  const ok =
    o.v === 1 &&
    typeof o.hp === 'string' &&
    typeof o.dev === 'string' &&
    typeof o.conf === 'number' &&
    Number.isInteger(o.iat) &&
    Number.isInteger(o.exp) &&
    typeof o.jti === 'string' &&
    typeof o.kid === 'string' &&
    (o.org === undefined || typeof o.org === 'string');
  return ok ? (o as unknown as BrowserTokenClaims) : null;
}
