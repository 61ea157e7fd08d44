import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs } from './backoff.js';

describe('webhook retry schedule', () => {
  const policy = (random: number) => ({ baseMs: 10_000, maxMs: 21_600_000, random: () => random });

  it('draws uniformly below a ceiling that doubles per attempt (full jitter)', () => {
    expect(retryDelayMs(1, policy(0.999999))).toBe(9_999);
    expect(retryDelayMs(2, policy(0.5))).toBe(10_000);
    expect(retryDelayMs(5, policy(0.5))).toBe(80_000);
    expect(retryDelayMs(3, policy(0))).toBe(0);
  });

  it('never exceeds the cap, however many attempts', () => {
    expect(retryDelayMs(60, policy(0.999999))).toBeLessThan(21_600_000);
  });

  it('lets Retry-After win over the computed delay, up to a day', () => {
    expect(retryDelayMs(1, policy(0.1), 120_000)).toBe(120_000);
    expect(retryDelayMs(1, policy(0.1), 90 * 86_400_000)).toBe(86_400_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
