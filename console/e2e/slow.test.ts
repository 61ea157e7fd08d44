import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sayingWhereSlow } from './slow';

describe('a set-up that says where it is slow', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('names the step it is at, and for how long, until the work ends, then says nothing more', async () => {
    const said: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => void said.push(line));
    let finish!: (value: string) => void;
    const done = sayingWhereSlow(
      'stack',
      (step) => {
        step('database');
        setTimeout(() => step('seeding'), 40_000);
        return new Promise<string>((resolve) => (finish = resolve));
      },
      30_000,
    );
    await vi.advanceTimersByTimeAsync(61_000);
    expect(said).toEqual(['stack: 30 s in, at "database" for 30 s', 'stack: 60 s in, at "seeding" for 20 s']);
    finish('up');
    expect(await done).toBe('up');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(said).toHaveLength(2);
    warn.mockRestore();
  });

  it('passes a failure on as it came', async () => {
    await expect(sayingWhereSlow('stack', async () => Promise.reject(new Error('no database')))).rejects.toThrow('no database');
  });
});
