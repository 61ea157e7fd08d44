import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Prefix per kind of credential, so a leaked string says what it is (and secret scanners can match it). */
export const secretPrefixes = {
  write: 'vigil_wk_',
  client: 'vigil_ck_',
  supervisor_token: 'vigil_st_',
  session: 'vigil_ss_',
} as const;

export type SecretKind = keyof typeof secretPrefixes;

/** 32 base62 characters ≈ 190 bits of randomness (rejection sampling keeps it unbiased). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface MintedSecret {
  /** The full secret: shown once, never stored. */
  secret: string;
  /** What is stored and looked up. */
  hash: string;
  /** Enough to tell secrets apart in a listing, too little to guess one. */
  displayPrefix: string;
}

export function mintSecret(kind: SecretKind): MintedSecret {
  const secret = secretPrefixes[kind] + randomBase62(32);
  return { secret, hash: sha256Hex(secret), displayPrefix: secret.slice(0, secretPrefixes[kind].length + 4) };
}

/** The short form of a hash that logs may carry. */
export function hashForLog(hash: string): string {
  return `sha256:${hash.slice(0, 12)}`;
}
