import { describe, expect, it } from 'vitest';
import { formatUntil } from './format';

describe('formatUntil', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);

  it('counts down to an expiry in minutes, hours, then days', () => {
    expect(formatUntil(later(5 * 60_000), now)).toBe('in 5 min');
    expect(formatUntil(later(3 * 3_600_000), now)).toBe('in 3 h');
    expect(formatUntil(later(30 * 86_400_000 - 1000).toISOString(), now)).toBe('in 29 days');
  });

  it('says expired once the time has passed', () => {
    expect(formatUntil(now, now)).toBe('expired');
    expect(formatUntil(later(-1), now)).toBe('expired');
  });
});
