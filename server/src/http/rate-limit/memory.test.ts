import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory.js';

describe('MemoryRateLimiter', () => {
  it('allows a burst, then refuses with Retry-After, then refills with time', () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ ratePerSecond: 1, burst: 3, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('k').allowed)).toEqual([true, true, true]);
    const refused = limiter.take('k');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(1);
    now += 1000;
    expect(limiter.take('k').allowed).toBe(true);
  });

  it('keeps subjects apart', () => {
    const limiter = new MemoryRateLimiter({ ratePerSecond: 1, burst: 1, now: () => 0 });
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('bounds memory by dropping idle subjects', () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ ratePerSecond: 1000, burst: 1, now: () => now, maxSubjects: 10 });
    for (let i = 0; i < 100; i++) {
      now += 10;
      expect(limiter.take(`s${i}`).allowed).toBe(true);
    }
  });
});
