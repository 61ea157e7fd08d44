/**
 * The arithmetic of a soak's summary, apart from the I/O so it can be tested: least-squares trends of the
 * sampled series after the warm-up, and the verdict they give.
 */

/** One sample of a run: `t` seconds after the load started, each series' value then (NaN: not measured). */
export interface Point {
  t: number;
  value: number;
}

export interface Trend {
  /** The first and last measured values after the warm-up. */
  start: number;
  end: number;
  /** Least-squares slope per hour, and its standard error (NaN with fewer than 3 points). */
  perHour: number;
  stderrPerHour: number;
  /** Points the slope was fitted to. */
  points: number;
}

/** Least-squares line through (x, y): its slope and the slope's standard error. */
export function leastSquares(xs: number[], ys: number[]): { slope: number; stderr: number } {
  const n = xs.length;
  if (n < 2) return { slope: NaN, stderr: NaN };
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  if (sxx === 0) return { slope: NaN, stderr: NaN };
  const slope = sxy / sxx;
  if (n < 3) return { slope, stderr: NaN };
  let residuals = 0;
  for (let i = 0; i < n; i++) residuals += (ys[i]! - my - slope * (xs[i]! - mx)) ** 2;
  return { slope, stderr: Math.sqrt(residuals / (n - 2) / sxx) };
}

/**
 * The trend of a series over the points at or after `warmup` seconds: the start of a run (JIT compilation, pools
 * and caches filling, the first checkpoints) grows memory once, and a slope through it would read as a leak.
 */
export function trend(points: Point[], warmup: number): Trend {
  const kept = points.filter((p) => p.t >= warmup && Number.isFinite(p.value));
  const { slope, stderr } = leastSquares(
    kept.map((p) => p.t / 3600),
    kept.map((p) => p.value),
  );
  return { start: kept[0]?.value ?? NaN, end: kept.at(-1)?.value ?? NaN, perHour: slope, stderrPerHour: stderr, points: kept.length };
}

/**
 * The lowest point of each whole `window` seconds after the warm-up. A heap saws between collections (tens of MB
 * at this rate), so a slope through every sample is mostly noise; the floor, what is left after the collections,
 * is what a leak raises. Each window must span a few collections and samples for its lowest to be near the floor,
 * so a window the run ended in is left out: its few samples would put a point above the floor at the end.
 */
export function floor(points: Point[], warmup: number, window: number): Point[] {
  const measured = points.filter((p) => p.t >= warmup && Number.isFinite(p.value));
  const end = Math.max(...measured.map((p) => p.t));
  const lowest = new Map<number, Point>();
  for (const p of measured) {
    const w = Math.floor((p.t - warmup) / window);
    if (warmup + (w + 1) * window > end) continue;
    const current = lowest.get(w);
    if (current === undefined || p.value < current.value) lowest.set(w, p);
  }
  return [...lowest.values()];
}

/** A trend's limit: the slope per hour (in the series' unit) under which the run counts as steady. */
export interface Limit {
  label: string;
  unit: string;
  trend: Trend;
  maxPerHour: number;
}

/**
 * One line: "steady" when every slope is under its limit and no request failed, else what was not. A slope that
 * could not be fitted (too few points) is not a pass.
 */
export function verdict(limits: Limit[], errors: number): string {
  const failed: string[] = [];
  const passed: string[] = [];
  for (const l of limits) {
    const text = `${l.label} ${signed(l.trend.perHour)} ${l.unit}/h`;
    if (l.trend.perHour < l.maxPerHour) passed.push(`${text} < ${l.maxPerHour}`);
    else failed.push(Number.isNaN(l.trend.perHour) ? `${l.label}: too few samples for a slope` : `${text} ≥ ${l.maxPerHour}`);
  }
  if (errors > 0) failed.push(`${errors} failed requests`);
  else passed.push('no failed requests');
  return failed.length === 0 ? `steady: ${passed.join(', ')}` : `NOT steady: ${failed.join(', ')}`;
}

/** A number with its sign, to the given decimals. */
export function signed(value: number, decimals = 1): string {
  if (Number.isNaN(value)) return 'n/a';
  return `${value >= 0 ? '+' : ''}${value.toFixed(decimals)}`;
}
