import type { RandomBytes } from "./types.js";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** `prefix` + 26 base32 characters (130 random bits). */
export function randomId(prefix: string, randomBytes: RandomBytes): string {
  const bytes = randomBytes(26);
  let out = prefix;
  for (let i = 0; i < 26; i++) out += ALPHABET[(bytes[i] ?? 0) & 31];
  return out;
}

/** A number in [0, 1) from the injected randomness (for jitter). */
export function randomUnit(randomBytes: RandomBytes): number {
  const b = randomBytes(4);
  const n = (((b[0] ?? 0) << 24) | ((b[1] ?? 0) << 16) | ((b[2] ?? 0) << 8) | (b[3] ?? 0)) >>> 0;
  return n / 2 ** 32;
}
