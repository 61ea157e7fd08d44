import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export function sha256(data: string): Buffer {
  return createHash('sha256').update(data, 'utf8').digest();
}

export function hmacSha256(secret: Uint8Array | string, data: string): Buffer {
  return createHmac('sha256', secret).update(data, 'utf8').digest();
}

/** Lower-case RFC 4648 base32 without padding (ids that are safe in URLs and case-insensitive stores). */
export function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
    if (out.length >= length) break;
  }
  return out;
}

export function base64url(data: Uint8Array | string): string {
  return Buffer.from(typeof data === 'string' ? Buffer.from(data, 'utf8') : data).toString('base64url');
}

export function fromBase64url(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  return Buffer.from(text, 'base64url');
}

/** Constant-time comparison (length leaks, content does not). */
export function safeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
