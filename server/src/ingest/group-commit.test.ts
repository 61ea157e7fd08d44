import { describe, expect, it } from 'vitest';
import { GroupCommitter, ItemFailure } from './group-commit.js';

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
});
