import { describe, expect, it } from 'vitest';
import { BURST_MIN_LATE, besideWalWaits, describeBursts, lateBursts } from './bursts.js';

/** `n` late requests due 1 ms apart from `from`. */
const lateFrom = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('late request bursts', () => {
  it('counts a window of enough late requests as a burst, and fewer as noise', () => {
    expect(lateBursts(lateFrom(1_000, BURST_MIN_LATE))).toEqual([{ from: 1_000, to: 1_000 + BURST_MIN_LATE - 1, late: BURST_MIN_LATE }]);
    expect(lateBursts(lateFrom(1_000, BURST_MIN_LATE - 1))).toEqual([]);
  });

  it('merges late requests of adjacent windows into one burst and keeps apart the ones a quiet window separates', () => {
    const late = [...lateFrom(1_050, 40), ...lateFrom(1_100, 30), ...lateFrom(1_500, 6)];
    expect(lateBursts(late)).toEqual([
      { from: 1_050, to: 1_129, late: 70 },
      { from: 1_500, to: 1_505, late: 6 },
    ]);
  });

  it('takes late requests in any order', () => {
    expect(lateBursts(lateFrom(2_000, 8).reverse())).toEqual([{ from: 2_000, to: 2_007, late: 8 }]);
  });

  it('places a burst beside WAL waits when the backends waited on the WAL twice as often around it as over the round', () => {
    const quiet = Array.from({ length: 100 }, (_, i) => ({ at: i * 50, waiting: i % 2 }));
    const flush = quiet.map((s) => (s.at >= 2_000 && s.at <= 2_100 ? { ...s, waiting: 4 } : s));
    const [burst] = lateBursts(lateFrom(2_050, 20));
    expect(besideWalWaits([burst!], flush)).toBe(1);
    // The same burst with the backends as quiet as ever was set by something else: the server, the generator, the machine.
    expect(besideWalWaits([burst!], quiet)).toBe(0);
    // No samples (a target without PostgreSQL): nothing to place it beside.
    expect(besideWalWaits([burst!], [])).toBe(0);
  });

  it('describes a round by its bursts', () => {
    const bursts = lateBursts([...lateFrom(1_000, 10), ...lateFrom(3_000, 5)]);
    expect(describeBursts(bursts, 52.4)).toBe('2 bursts (15 late, up to 52 ms)');
    expect(describeBursts(bursts, 52.4, [{ at: 1_000, waiting: 3 }, ...Array.from({ length: 20 }, (_, i) => ({ at: 5_000 + i, waiting: 0 }))])).toBe(
      '2 bursts (15 late, up to 52 ms), 1 beside WAL waits',
    );
    expect(describeBursts([], 3)).toBe('no bursts');
  });
});
