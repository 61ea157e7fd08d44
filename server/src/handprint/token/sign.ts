import { base32, base64url, hmacSha256 } from '../crypto.js';
import { BrowserTokenConfigError, type BrowserTokenClaims, type KeyRing, type SigningKey } from './types.js';

export const TOKEN_PREFIX = 'vbt1';
export const DEFAULT_TTL_SECONDS = 600;
export const MAX_TTL_SECONDS = 3600;
const MIN_SECRET_BYTES = 32;

export interface SignOptions {
  keys: KeyRing;
  /** ms since epoch */
  now: number;
  ttlSeconds?: number;
  /** Random bytes for the nonce (crypto.randomBytes in the server). */
  randomBytes: (length: number) => Uint8Array;
}

export interface IssueInput {
  handprint_id: string;
  device_id: string;
  confidence: number;
  origin?: string | null;
}

/**
 * browser_token = "vbt1." base64url(JSON claims) "." base64url(HMAC-SHA256(secret, "vbt1." + payload)).
 * Opaque to browsers; only this server can mint or check one.
 */
export function signBrowserToken(input: IssueInput, options: SignOptions): { token: string; claims: BrowserTokenClaims } {
  const key = checkKey(options.keys.current);
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TTL_SECONDS) {
    throw new BrowserTokenConfigError(`browser token ttl must be 1..${MAX_TTL_SECONDS} seconds, got ${ttl}`);
  }
  const iat = Math.floor(options.now / 1000);
  const claims: BrowserTokenClaims = {
    v: 1,
    hp: input.handprint_id,
    dev: input.device_id,
    conf: input.confidence,
    iat,
    exp: iat + ttl,
    jti: base32(options.randomBytes(20), 26),
    kid: key.kid,
    ...(input.origin ? { org: input.origin } : {}),
  };
  const payload = base64url(JSON.stringify(claims));
  const signature = base64url(hmacSha256(key.secret, `${TOKEN_PREFIX}.${payload}`));
  return { token: `${TOKEN_PREFIX}.${payload}.${signature}`, claims };
}

export function checkKey(key: SigningKey): SigningKey {
  if (!key || typeof key.kid !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(key.kid)) {
    throw new BrowserTokenConfigError('browser token key needs a kid of 1..32 characters [A-Za-z0-9_-]');
  }
  const length = typeof key.secret === 'string' ? Buffer.byteLength(key.secret, 'utf8') : (key.secret?.length ?? 0);
  if (length < MIN_SECRET_BYTES) {
    throw new BrowserTokenConfigError(`browser token secret "${key.kid}" must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return key;
}
