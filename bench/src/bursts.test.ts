import { describe, expect, it } from 'vitest';
import { BURST_GAP_MS, BURST_MIN_LATE, besideWalWaits, describeBursts, type Late, lateBursts } from './bursts.js';

/** `n` late requests due 1 ms apart from `from`, each answered `ms` late. */
const lateFrom = (from: number, n: number, ms = 20): Late[] => Array.from({ length: n }, (_, i) => ({ at: from + i, ms }));

describe('late request bursts', () => {
  it('counts a run of enough late requests as a burst, and fewer as noise', () => {
    expect(lateBursts(lateFrom(1_000, BURST_MIN_LATE))).toEqual([{ from: 1_000, to: 1_000 + BURST_MIN_LATE - 1, late: BURST_MIN_LATE, maxMs: 20 }]);
    expect(lateBursts(lateFrom(1_000, BURST_MIN_LATE - 1))).toEqual([]);
  });

  it('keeps a burst whole across any boundary of time', () => {
    expect(lateBursts(lateFrom(96, 8))).toEqual([{ from: 96, to: 103, late: 8, maxMs: 20 }]);
    expect(lateBursts(lateFrom(-3, 6))).toEqual([{ from: -3, to: 2, late: 6, maxMs: 20 }]);
  });

  it('joins late requests due within the gap of each other and parts them at a longer quiet stretch', () => {
    const late = [...lateFrom(1_000, 5), ...lateFrom(1_004 + BURST_GAP_MS, 4), ...lateFrom(1_007 + 2 * BURST_GAP_MS + 1, 6)];
    expect(lateBursts(late)).toEqual([
      { from: 1_000, to: 1_007 + BURST_GAP_MS, late: 9, maxMs: 20 },
      { from: 1_008 + 2 * BURST_GAP_MS, to: 1_013 + 2 * BURST_GAP_MS, late: 6, maxMs: 20 },
    ]);
  });

  it('does not chain sparse late requests into a burst', () => {
    expect(lateBursts(Array.from({ length: 20 }, (_, i) => ({ at: i * (BURST_GAP_MS + 1), ms: 11 })))).toEqual([]);
  });

  it('takes late requests in any order, and a burst is as late as its latest answer', () => {
    const late = lateFrom(2_000, 8).reverse();
    late[3] = { ...late[3]!, ms: 77 };
    expect(lateBursts(late)).toEqual([{ from: 2_000, to: 2_007, late: 8, maxMs: 77 }]);
  });

  it('places a burst beside WAL waits when the backends waited on the WAL twice as often around it as outside bursts', () => {
    const quiet = Array.from({ length: 100 }, (_, i) => ({ at: i * 50, waiting: i % 2 }));
    const flush = quiet.map((s) => (s.at >= 2_000 && s.at <= 2_100 ? { ...s, waiting: 4 } : s));
    const [burst] = lateBursts(lateFrom(2_050, 20));
    expect(besideWalWaits([burst!], flush)).toBe(1);
    // The same burst with the backends as quiet as ever was set by something else: the server, the generator, the machine.
    expect(besideWalWaits([burst!], quiet)).toBe(0);
    // Backends that never waited on the WAL: no burst is beside waits that did not happen.
    expect(
      besideWalWaits(
        [burst!],
        quiet.map((s) => ({ ...s, waiting: 0 })),
      ),
    ).toBe(0);
    // No samples (a target without PostgreSQL): nothing to place it beside.
    expect(besideWalWaits([burst!], [])).toBe(0);
  });

  it('compares a burst with the samples outside every burst, so another burst does not raise the bar', () => {
    const samples = Array.from({ length: 200 }, (_, i) => ({
      at: i * 50,
      waiting: i * 50 >= 2_000 && i * 50 <= 2_100 ? 2 : i * 50 >= 6_000 && i * 50 <= 6_100 ? 60 : 0.5,
    }));
    const bursts = lateBursts([...lateFrom(2_050, 10), ...lateFrom(6_050, 10)]);
    expect(besideWalWaits(bursts, samples)).toBe(2);
  });

  it('describes a round by its bursts', () => {
    const bursts = lateBursts([...lateFrom(1_000, 10, 52.4), ...lateFrom(3_000, 5)]);
    expect(describeBursts(bursts)).toBe('2 bursts (15 late, up to 52 ms)');
    expect(describeBursts(bursts, [{ at: 1_000, waiting: 3 }, ...Array.from({ length: 20 }, (_, i) => ({ at: 5_000 + i, waiting: 0 }))])).toBe(
      '2 bursts (15 late, up to 52 ms), 1 beside WAL waits',
    );
    expect(describeBursts([])).toBe('no bursts');
  });
});
