/**
 * A small, fast, non-cryptographic 64-bit string hash (two 32-bit lanes).
 * Used only to shrink large readings (canvas pixels, audio samples) before they leave the browser;
 * the server never trusts these values for anything but similarity.
 */
export function hash64(input: string): string {
  let a = 0x811c9dc5 ^ input.length;
  let b = 0x9e3779b9;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= b >>> 13;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 16;
  b ^= a >>> 11;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  return hex32(a) + hex32(b);
}

function hex32(n: number): string {
  return (n >>> 0).toString(16).padStart(8, "0");
}
