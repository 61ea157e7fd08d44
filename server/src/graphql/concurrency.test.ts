import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency.js';

describe('ConcurrencyLimit', () => {
  it('gives each key up to max places and takes them back', () => {
    const limit = new ConcurrencyLimit(2);
    const a1 = limit.tryAcquire('a');
    const a2 = limit.tryAcquire('a');
    expect(a1).not.toBeNull();
    expect(a2).not.toBeNull();
    expect(limit.tryAcquire('a')).toBeNull();
    expect(limit.tryAcquire('b')).not.toBeNull();
    a1!();
    expect(limit.tryAcquire('a')).not.toBeNull();
  });
  it('counts a release once, however often it is called', () => {
    const limit = new ConcurrencyLimit(1);
    const first = limit.tryAcquire('a')!;
    first();
    first();
    const second = limit.tryAcquire('a');
    expect(second).not.toBeNull();
    expect(limit.tryAcquire('a')).toBeNull();
  });
});
