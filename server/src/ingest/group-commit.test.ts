import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommitter, ItemFailure } from './group-commit.js';

/** A committer on fake timers whose commits end only when the test says, recording each batch as it starts. */
const held = (options: { overlapAfterMs?: number; lingerMs?: number; concurrency: number; maxBatch?: number }) => {
  vi.useFakeTimers();
  const batches: number[][] = [];
  const ends: (() => void)[] = [];
  const gc = new GroupCommitter<number, number>({
    maxBatch: 100,
    ...options,
    now: () => Date.now(),
    commit: (items) =>
      new Promise((resolve) => {
        batches.push(items);
        ends.push(() => resolve(items));
      }),
  });
  return { gc, batches, ends };
};

describe('GroupCommitter', () => {
  it('commits concurrent submissions together and answers each in order', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => {
        batches.push(items);
        return items.map((i) => i * 10);
      },
      maxBatch: 100,
      concurrency: 1,
    });
    const results = await Promise.all([1, 2, 3, 4].map((n) => gc.submit(n)));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('never puts more than maxBatch items in one commit', async () => {
    const sizes: number[] = [];
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => (sizes.push(items.length), items),
      maxBatch: 3,
      concurrency: 1,
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => gc.submit(i)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(sizes.reduce((a, b) => a + b)).toBe(10);
  });

  it('fails only the item a written batch reports as failed, without writing the batch again', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => (batches.push(items), items.map((i) => (i === 13 ? new ItemFailure(new Error('lost')) : i))),
      maxBatch: 100,
      concurrency: 1,
    });
    const results = await Promise.allSettled([12, 13, 14].map((n) => gc.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('lost'));
    expect(batches).toEqual([[12, 13, 14]]);
  });

  it('retries a failed batch item by item so one bad item fails alone', async () => {
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => {
        if (items.includes(13)) throw new Error('bad item');
        return items;
      },
      maxBatch: 100,
      concurrency: 1,
    });
    const settled = await Promise.allSettled([1, 13, 2].map((n) => gc.submit(n)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('reports each commit that returned with its size and duration, the retries of a failed batch one by one', async () => {
    let clock = 0;
    const reported: [number, number][] = [];
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => {
        clock += 4 * items.length;
        if (items.includes(13)) throw new Error('bad item');
        return items;
      },
      maxBatch: 100,
      concurrency: 1,
      now: () => clock,
      onCommitted: (size, ms) => reported.push([size, ms]),
    });
    await Promise.all([1, 2].map((n) => gc.submit(n)));
    await Promise.allSettled([3, 13, 4].map((n) => gc.submit(n)));
    // The failed batch of three is not reported; of its retries, the one that threw is not either.
    expect(reported).toEqual([
      [2, 8],
      [1, 4],
      [1, 4],
    ]);
  });

  it('answers a written batch whose observer throws, without writing it again', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => (batches.push(items), items),
      maxBatch: 100,
      concurrency: 1,
      onCommitted: () => {
        throw new Error('observer broke');
      },
    });
    expect(await Promise.all([1, 2].map((n) => gc.submit(n)))).toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('drains: resolves once everything submitted is committed', async () => {
    let committed = 0;
    const gc = new GroupCommitter<number, number>({
      commit: async (items) => {
        await new Promise((r) => setTimeout(r, 5));
        committed += items.length;
        return items;
      },
      maxBatch: 2,
      concurrency: 2,
    });
    for (let i = 0; i < 7; i++) void gc.submit(i);
    await gc.drain();
    expect(committed).toBe(7);
    expect(gc.pending).toBe(0);
  });

  describe('with overlapAfterMs', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('holds what arrives during a commit for the next one, which goes out larger', async () => {
      const { gc, batches, ends } = held({ overlapAfterMs: 50, concurrency: 4 });
      const first = gc.submit(1);
      await vi.advanceTimersByTimeAsync(0);
      const rest = [gc.submit(2), gc.submit(3)];
      await vi.advanceTimersByTimeAsync(10);
      expect(batches).toEqual([[1]]);

      ends[0]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1], [2, 3]]);
      ends[1]!();
      expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3]);
    });

    it('starts the next batch beside a commit that has run that long, one more at a time up to the concurrency', async () => {
      const { gc, batches, ends } = held({ overlapAfterMs: 50, concurrency: 3 });
      const all = [gc.submit(1)];
      await vi.advanceTimersByTimeAsync(0);
      all.push(gc.submit(2));
      await vi.advanceTimersByTimeAsync(49);
      expect(batches).toEqual([[1]]);

      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1], [2]]);
      // The newest commit in flight sets the clock: a third waits for the second to have run as long.
      all.push(gc.submit(3));
      await vi.advanceTimersByTimeAsync(49);
      expect(batches).toEqual([[1], [2]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1], [2], [3]]);
      // The cap holds, however long the commits take.
      all.push(gc.submit(4));
      await vi.advanceTimersByTimeAsync(1000);
      expect(batches).toHaveLength(3);

      ends.forEach((end) => end());
      await vi.advanceTimersByTimeAsync(0);
      ends[3]!();
      expect(await Promise.all(all)).toEqual([1, 2, 3, 4]);
    });

    it('measures from the newest commit still in flight, not from one that has ended', async () => {
      const { gc, batches, ends } = held({ overlapAfterMs: 50, concurrency: 3 });
      const all = [gc.submit(1)];
      await vi.advanceTimersByTimeAsync(0);
      all.push(gc.submit(2));
      await vi.advanceTimersByTimeAsync(50);
      expect(batches).toEqual([[1], [2]]);
      ends[1]!();
      await vi.advanceTimersByTimeAsync(10);
      // Only the first is in flight, and it has run 60 ms: the next batch need not wait.
      all.push(gc.submit(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1], [2], [3]]);
      ends[0]!();
      ends[2]!();
      expect(await Promise.all(all)).toEqual([1, 2, 3]);
    });

    it('drains while the queue waits to overlap', async () => {
      const { gc, ends } = held({ overlapAfterMs: 50, concurrency: 2 });
      void gc.submit(1);
      await vi.advanceTimersByTimeAsync(0);
      void gc.submit(2);
      let drained = false;
      void gc.drain().then(() => {
        drained = true;
      });
      await vi.advanceTimersByTimeAsync(50);
      ends.forEach((end) => end());
      await vi.advanceTimersByTimeAsync(0);
      expect(drained).toBe(true);
      expect(gc.pending).toBe(0);
    });

    it('overlaps at once when it is 0, as without it', async () => {
      const { gc, batches, ends } = held({ overlapAfterMs: 0, concurrency: 2 });
      const all = [gc.submit(1)];
      await vi.advanceTimersByTimeAsync(0);
      all.push(gc.submit(2));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1], [2]]);
      ends.forEach((end) => end());
      expect(await Promise.all(all)).toEqual([1, 2]);
    });
  });

  describe('with lingerMs', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('lets the oldest waiting item wait that long for others, then sends them together', async () => {
      const { gc, batches, ends } = held({ lingerMs: 3, concurrency: 4 });
      const all = [gc.submit(1)];
      await vi.advanceTimersByTimeAsync(2);
      all.push(gc.submit(2));
      expect(batches).toEqual([]);
      // Counted from the first item's arrival, not the last one's.
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1, 2]]);
      ends[0]!();
      expect(await Promise.all(all)).toEqual([1, 2]);
    });

    it('sends a full batch at once', async () => {
      const { gc, batches, ends } = held({ lingerMs: 1000, concurrency: 1, maxBatch: 2 });
      const all = [gc.submit(1), gc.submit(2)];
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1, 2]]);
      ends[0]!();
      expect(await Promise.all(all)).toEqual([1, 2]);
    });

    it('sends what waited that long behind a commit in flight as soon as it ends', async () => {
      const { gc, batches, ends } = held({ lingerMs: 3, overlapAfterMs: 50, concurrency: 2 });
      const all = [gc.submit(1)];
      await vi.advanceTimersByTimeAsync(3);
      all.push(gc.submit(2));
      await vi.advanceTimersByTimeAsync(10);
      expect(batches).toEqual([[1]]);
      ends[0]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1], [2]]);
      ends[1]!();
      expect(await Promise.all(all)).toEqual([1, 2]);
    });

    it('sends one full batch at once from a longer queue, and lets the rest linger', async () => {
      const { gc, batches, ends } = held({ lingerMs: 5, concurrency: 2, maxBatch: 2 });
      const all = [1, 2, 3].map((n) => gc.submit(n));
      await vi.advanceTimersByTimeAsync(4);
      expect(batches).toEqual([[1, 2]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1, 2], [3]]);
      ends.forEach((end) => end());
      expect(await Promise.all(all)).toEqual([1, 2, 3]);
    });

    it('drains while the queue lingers', async () => {
      const { gc, ends } = held({ lingerMs: 5, concurrency: 1 });
      void gc.submit(1);
      let drained = false;
      void gc.drain().then(() => {
        drained = true;
      });
      await vi.advanceTimersByTimeAsync(4);
      expect(drained).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(drained).toBe(false);
      ends[0]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(drained).toBe(true);
    });
  });
});
