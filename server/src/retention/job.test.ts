import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { firstRunDelay } from './job.js';

describe('the first retention run after start', () => {
  it('waits a few minutes by default, not the same moment in every process', () => {
    const delayMs = loadConfig({}).env.VIGIL_RETENTION_START_DELAY_SECONDS * 1000;
    expect(delayMs).toBe(300_000);
    // Between the delay and twice it, wherever the random draw falls.
    expect(firstRunDelay(delayMs, () => 0)).toBe(300_000);
    expect(firstRunDelay(delayMs, () => 0.5)).toBe(450_000);
    expect(firstRunDelay(delayMs, () => 0.999_999)).toBeLessThan(600_000);
  });

  it('runs at start when the delay is 0', () => {
    expect(loadConfig({ VIGIL_RETENTION_START_DELAY_SECONDS: '0' }).env.VIGIL_RETENTION_START_DELAY_SECONDS).toBe(0);
    expect(firstRunDelay(0, () => 0.9)).toBe(0);
    expect(() => loadConfig({ VIGIL_RETENTION_START_DELAY_SECONDS: '-1' })).toThrow(/VIGIL_RETENTION_START_DELAY_SECONDS/);
  });
});
