/** Claims inside a browser_token. Short names keep the token small; it travels in every backend event. */
export interface BrowserTokenClaims {
  v: 1;
  /** handprint_id */
  hp: string;
  /** device_id (the browser's first-party id) */
  dev: string;
  /** confidence of the handprint at issue time */
  conf: number;
  /** issued at / expires at, seconds since epoch */
  iat: number;
  exp: number;
  /** nonce: replay counting is per token */
  jti: string;
  /** signing key id (rotation) */
  kid: string;
  /** page origin the token was issued to, when known (audit only) */
  org?: string;
}

export interface SigningKey {
  kid: string;
  /** At least 32 bytes (a string is taken as UTF-8). */
  secret: Uint8Array | string;
}

/** The current key signs; older keys still verify until their tokens have expired. */
export interface KeyRing {
  current: SigningKey;
  previous?: readonly SigningKey[];
}

export type VerifyFailure = 'malformed' | 'unknown_key' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'replayed';

export type VerifyResult =
  | { ok: true; claims: BrowserTokenClaims; uses: number | null }
  | { ok: false; reason: VerifyFailure; claims?: BrowserTokenClaims; uses?: number };

/**
 * Counts how often each token (by jti) was presented. Implementations: memory (one process), a database table
 * or Redis (several). `use` increments and returns the count including this use; entries may be forgotten
 * after `expiresAtMs` since expired tokens are refused before counting.
 */
export interface ReplayCounter {
  use(jti: string, expiresAtMs: number): number | Promise<number>;
}

/** A configuration mistake (not an outcome): thrown, never returned. */
export class BrowserTokenConfigError extends Error {
  override name = 'BrowserTokenConfigError';
}
