import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));

/** N=2^15, r=8, p=1: OWASP's scrypt floor; ~32 MiB and tens of milliseconds per attempt. */
export const PASSWORD_PARAMS = { N: 32768, r: 8, p: 1 } as const;
let PARAMS: { N: number; r: number; p: number } = PASSWORD_PARAMS;
const KEYLEN = 32;
// scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly that, so leave headroom.
const maxmem = 64 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`: self-describing, so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { ...PARAMS, maxmem });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const key = await scrypt(password, salt, expected.length, { N, r, p, maxmem });
  return timingSafeEqual(key, expected);
}

/**
 * Tests only (the test harness calls it; nothing in the server does, and no setting reaches it): new hashes at
 * N=2^10, ~100 times cheaper. The test suites make about a thousand accounts and sessions, and at the production
 * cost each takes ~0.1 s of CPU and 32 MiB. Hashes stay self-describing, so verification is unchanged.
 */
export function lowerPasswordCostForTests(): void {
  PARAMS = { ...PASSWORD_PARAMS, N: 1024 };
}

/** A hash no password matches, verified for unknown usernames so their answer takes as long as a wrong password. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString('hex')));

/** 24 base64url characters ≈ 144 bits: generated passwords for new accounts. */
export const generatePassword = () => randomBytes(18).toString('base64url');
