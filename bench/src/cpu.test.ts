import { describe, expect, it } from 'vitest';
import { runQueueSeconds } from './cpu.js';

describe('run-queue delay', () => {
  it('reads how long a process waited for a CPU from the kernel, and nothing of a process that is not there', () => {
    const before = runQueueSeconds(process.pid);
    expect(before).toBeGreaterThanOrEqual(0);
    // Busy for a while (which need not add any wait): the count never goes back.
    const until = Date.now() + 20;
    while (Date.now() < until) {}
    expect(runQueueSeconds(process.pid)).toBeGreaterThanOrEqual(before!);
    expect(runQueueSeconds(2 ** 22 + 1)).toBeUndefined();
    expect(runQueueSeconds(undefined)).toBeUndefined();
  });
});
