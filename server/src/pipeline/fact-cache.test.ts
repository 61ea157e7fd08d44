import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { FactCache, isStaleFacts, STALE_FACTS } from './fact-cache.js';

describe('FactCache', () => {
  it('keeps at most its capacity, dropping the least recently used first', () => {
    const cache = new FactCache(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('keeps null as a fact ("no such row"), apart from a missing entry', () => {
    const cache = new FactCache(4);
    cache.set('gone', null);
    expect(cache.get('gone')).toBeNull();
    cache.drop('gone');
    expect(cache.get('gone')).toBeUndefined();
  });

  it('keeps no entry for undefined: it reads as missing', () => {
    const cache = new FactCache(4);
    cache.set('a', 1);
    cache.set('a', undefined);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing at capacity 0', () => {
    const cache = new FactCache(0);
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('isStaleFacts', () => {
  const stale = Object.assign(new Error('cached facts changed'), { code: STALE_FACTS });
  it('finds vigil_facts_hold raising, directly and through a driver wrapper', () => {
    expect(isStaleFacts(stale)).toBe(true);
    expect(isStaleFacts(new DrizzleQueryError('INSERT …', [], stale))).toBe(true);
  });
  it('is false for any other failure', () => {
    expect(isStaleFacts(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isStaleFacts(new DrizzleQueryError('INSERT …', [], new Error('boom')))).toBe(false);
    expect(isStaleFacts('VGS01')).toBe(false);
  });
});
