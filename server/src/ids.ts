import { randomBytes } from 'node:crypto';

// Crockford base32: sortable as text, no ambiguous letters.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdKind = 'evt' | 'dev' | 'key' | 'sup' | 'tok' | 'ses' | 'aud' | 'whs' | 'msg' | 'wha' | 'dsr';

// Random bytes are drawn from the CSPRNG in blocks: one call per id cost more than the rest of id making.
const POOL_SIZE = 10 * 256;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function randomSlice(): Buffer {
  if (offset + 10 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool.subarray(offset, (offset += 10));
}

/**
 * A prefixed, time-sortable id (`evt_01J…`): 48 bits of milliseconds then 80 random bits, like a ULID,
 * so ids sort by creation time in indexes and logs.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  const time = encodeTime(now);
  const random = randomSlice();
  let rand = '';
  // 80 bits → 16 base32 characters, 5 bits at a time.
  let buffer = 0;
  let bits = 0;
  for (const byte of random) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      rand += ALPHABET[(buffer >> bits) & 31];
    }
  }
  return `${kind}_${time}${rand}`;
}

/**
 * The smallest id of `kind` made at `time`: every id made earlier sorts below it, so a range scan of the primary key
 * finds rows older than a cutoff without an index on their time.
 */
export function firstIdAt(kind: IdKind, time: number): string {
  return `${kind}_${encodeTime(time)}`;
}

/** 48 bits of milliseconds as 10 base32 characters. */
function encodeTime(ms: number): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}
