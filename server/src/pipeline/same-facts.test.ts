import { describe, expect, it } from 'vitest';
import { sameFacts } from './same-facts.js';

describe('sameFacts', () => {
  it('finds equal primitives, arrays and plain objects the same, however they were built', () => {
    expect(sameFacts('a', 'a')).toBe(true);
    expect(sameFacts(null, null)).toBe(true);
    expect(sameFacts(['device-1', 1_796_038_601_985, null, 'Pixel 8'], ['device-1', 1_796_038_601_985, null, 'Pixel 8'])).toBe(true);
    expect(sameFacts({ first: 5, n: 2, links: ['a', 'b'] }, { n: 2, links: ['a', 'b'], first: 5 })).toBe(true);
    expect(sameFacts(Object.assign(Object.create(null), { a: 1 }), { a: 1 })).toBe(true);
  });

  it('finds any difference of value, order, length or keys different', () => {
    expect(sameFacts(1, '1')).toBe(false);
    expect(sameFacts(null, undefined)).toBe(false);
    expect(sameFacts(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameFacts(['a'], ['a', 'b'])).toBe(false);
    expect(sameFacts({ first: 5, n: 2, links: ['a'] }, { first: 5, n: 3, links: ['a'] })).toBe(false);
    expect(sameFacts({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameFacts({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameFacts([1], { 0: 1, length: 1 })).toBe(false);
  });

  it('never finds anything but plain data the same, nor data nested too deep, so the newer value is kept', () => {
    expect(sameFacts(new Date(0), new Date(0))).toBe(false);
    expect(sameFacts(new Map([[1, 2]]), new Map())).toBe(false);
    expect(sameFacts(Number.NaN, Number.NaN)).toBe(false);
    const deep = () => ({ a: { b: { c: { d: { e: { f: 1 } } } } } });
    expect(sameFacts(deep(), deep())).toBe(false);
  });
});
