import { describe, expect, it } from 'vitest';
import { floor, leastSquares, trend, verdict, type Limit, type Trend } from './summary.js';

describe('leastSquares', () => {
  it('finds the slope of points on a line, with no error', () => {
    const { slope, stderr } = leastSquares([0, 1, 2, 3], [5, 7, 9, 11]);
    expect(slope).toBeCloseTo(2, 12);
    expect(stderr).toBeCloseTo(0, 12);
  });

  it('gives the textbook slope and standard error for scattered points', () => {
    // x̄ = 2, ȳ = 2.6, Sxx = 10, Sxy = 8: slope 0.8, line 1 + 0.8x; residuals 0, -0.8, 1.4, -0.4, -0.2, squares sum 2.8.
    const { slope, stderr } = leastSquares([0, 1, 2, 3, 4], [1, 1, 4, 3, 4]);
    expect(slope).toBeCloseTo(0.8, 12);
    expect(stderr).toBeCloseTo(Math.sqrt(2.8 / (5 - 2) / 10), 12);
  });

  it('has no slope with fewer than two distinct x', () => {
    expect(leastSquares([1], [1]).slope).toBeNaN();
    expect(leastSquares([2, 2], [1, 3]).slope).toBeNaN();
  });
});

describe('trend', () => {
  it('leaves out the warm-up and unmeasured points, and gives the slope per hour', () => {
    const points = [
      { t: 0, value: 1000 }, // warm-up: a jump that would read as growth
      { t: 30, value: 500 },
      { t: 60, value: 100 },
      { t: 120, value: NaN },
      { t: 1860, value: 101 },
      { t: 3660, value: 102 },
    ];
    const result = trend(points, 60);
    expect(result.points).toBe(3);
    expect(result.start).toBe(100);
    expect(result.end).toBe(102);
    expect(result.perHour).toBeCloseTo(2, 12);
  });
});

describe('floor', () => {
  it('keeps the lowest measured point of each whole window after the warm-up', () => {
    const saw = [
      { t: 5, value: 1 }, // warm-up
      { t: 10, value: 80 },
      { t: 20, value: 40 },
      { t: 30, value: NaN },
      { t: 69, value: 90 },
      { t: 70, value: 42 },
      { t: 80, value: 95 },
      { t: 130, value: 1 }, // the window the run ended in: left out
    ];
    expect(floor(saw, 10, 60)).toEqual([
      { t: 20, value: 40 },
      { t: 70, value: 42 },
    ]);
  });

  it('turns a sawtooth on a rising floor into that floor', () => {
    // Rises 1 per 60 s under a saw of 0..50: the floor's slope is 60 per hour.
    const points = Array.from({ length: 601 }, (_, i) => ({ t: i * 6, value: i / 10 + ((i * 7) % 10) * 5 }));
    expect(trend(floor(points, 0, 60), 0).perHour).toBeCloseTo(60, 6);
  });
});

describe('verdict', () => {
  const flat: Trend = { start: 1, end: 1, perHour: 0.5, stderrPerHour: 0.1, points: 10 };
  const limit = (t: Trend): Limit => ({ label: 'heap', unit: 'MB', trend: t, maxPerHour: 10 });

  it('is steady when every slope is under its limit and nothing failed', () => {
    expect(verdict([limit(flat)], 0)).toBe('steady: heap +0.5 MB/h < 10, no failed requests');
  });

  it('names the slopes over their limit and the failed requests', () => {
    expect(verdict([limit({ ...flat, perHour: 12 })], 3)).toBe('NOT steady: heap +12.0 MB/h ≥ 10, 3 failed requests');
  });

  it('does not pass a slope it could not fit', () => {
    expect(verdict([limit({ ...flat, perHour: NaN })], 0)).toMatch(/^NOT steady: heap: too few samples/);
  });
});
