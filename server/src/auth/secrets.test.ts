import { describe, expect, it } from 'vitest';
import { mintSecret, secretPrefixes, sha256Hex } from './secrets.js';

describe('mintSecret', () => {
  it('prefixes each kind distinctly', () => {
    expect(mintSecret('write').secret.startsWith('vigil_wk_')).toBe(true);
    expect(mintSecret('client').secret.startsWith('vigil_ck_')).toBe(true);
    expect(new Set(Object.values(secretPrefixes)).size).toBe(Object.keys(secretPrefixes).length);
  });

  it('carries at least 128 bits of randomness', () => {
    const { secret } = mintSecret('write');
    const random = secret.slice(secretPrefixes.write.length);
    expect(random.length * Math.log2(62)).toBeGreaterThanOrEqual(128);
    expect(random).toMatch(/^[0-9A-Za-z]+$/);
  });

  it('stores the SHA-256 and a short display prefix, never the secret', () => {
    const minted = mintSecret('client');
    expect(minted.hash).toBe(sha256Hex(minted.secret));
    expect(minted.displayPrefix.length).toBeLessThan(minted.secret.length / 2);
    expect(minted.secret.startsWith(minted.displayPrefix)).toBe(true);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => mintSecret('write').secret));
    expect(seen.size).toBe(1000);
  });
});
