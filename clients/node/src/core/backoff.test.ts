import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

const policy = { minDelayMs: 500, maxDelayMs: 30_000 };

describe('backoffDelay', () => {
  it('doubles per attempt, half fixed and half jittered', () => {
    expect(backoffDelay(policy, 1, () => 0)).toBe(250);
    expect(backoffDelay(policy, 1, () => 0.999999)).toBe(500);
    expect(backoffDelay(policy, 2, () => 0)).toBe(500);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(1500);
  });

  it('never exceeds the cap', () => {
    expect(backoffDelay(policy, 30, () => 0.999999)).toBe(30_000);
    expect(backoffDelay(policy, 30, () => 0)).toBe(15_000);
  });
});
