import { describe, expect, it } from 'vitest';
import { FlushCounter } from './pglite-thread.js';

describe('FlushCounter', () => {
  it('counts past 2^31 in each slot, as a year of commits does, where a 32-bit count turned negative', () => {
    const counter = new FlushCounter();
    // The PGlite thread and its flusher add to the shared slots as this does.
    const slots = new BigInt64Array(counter.shared);
    slots.fill(2n ** 31n - 1n);
    for (let slot = 0; slot < 5; slot++) Atomics.add(slots, slot, 1n);
    expect([counter.fsyncs, counter.background, counter.failed, counter.slowWalFlushes]).toEqual([2 ** 31, 2 ** 31, 2 ** 31, 2 ** 31]);
    expect(counter.walFlushSeconds).toBe(2 ** 31 / 1e9);
  });

  it('hands the longest flush once, in seconds, and starts over', () => {
    const counter = new FlushCounter();
    Atomics.store(new BigInt64Array(counter.shared), 5, 12_500_000n);
    expect(counter.takeLongestWalFlush()).toBe(0.0125);
    expect(counter.takeLongestWalFlush()).toBe(0);
  });
});
