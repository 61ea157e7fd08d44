import { describe, expect, it } from 'vitest';
import { firstIdAt, newId } from './ids.js';

describe('newId', () => {
  it('is prefixed by kind and 26 characters after the prefix', () => {
    const id = newId('evt');
    expect(id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sorts by creation time', () => {
    const earlier = newId('dev', 1_700_000_000_000);
    const later = newId('dev', 1_700_000_000_001);
    expect(earlier < later).toBe(true);
  });

  it('differs between two ids made in the same millisecond', () => {
    expect(newId('key', 1)).not.toBe(newId('key', 1));
  });

  it('never repeats across many ids, also where its block of random bytes is refilled', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newId('evt', 1)));
    expect(ids.size).toBe(2000);
  });
});

describe('firstIdAt', () => {
  it('sorts after every id made before its time and at or before every id made from it on', () => {
    const bound = firstIdAt('msg', 1_700_000_000_000);
    expect(newId('msg', 1_699_999_999_999) < bound).toBe(true);
    for (let i = 0; i < 50; i++) expect(newId('msg', 1_700_000_000_000) >= bound).toBe(true);
    expect(newId('msg', 1_700_000_000_001) > bound).toBe(true);
  });
});
