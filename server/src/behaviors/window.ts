import { MAX_RETURN_VALUES } from './config.js';
import type { CompiledBehavior } from './definition.js';
import { HyperLogLog } from './hll.js';

/** A bucket keeps its distinct values exactly up to this many, then switches to HyperLogLog registers. */
export const EXACT_UNIQUE_BOUND = 1000;

export interface BucketState {
  count: number;
  sum: number;
  /** Distinct values (unique only): all of them while `hll` is null, a sample of at most 100 after; null for count/sum. */
  items: string[] | null;
  hll: HyperLogLog | null;
}

/** One counted event: its time (epoch ms), its summed value and its unique value. */
export interface Point {
  at: number;
  value: number | null;
  item: string | null;
}

/**
 * What was read from the database for one (behavior, group): the aggregate of each bucket in range (absent:
 * empty) and, for some buckets, every stored point at or after `from` — exact suffixes of buckets, which is all a
 * window's edges ever need.
 */
export interface PairView {
  buckets: Map<number, BucketState>;
  suffixes: Map<number, { from: number; points: Point[] }>;
}

export interface BehaviorValue {
  count: number | null;
  sum: number | null;
  unique: number | null;
  values: string[] | null;
}

/** The window of an event at `t`: t − window < at ≤ t, so an event exactly `window` old is out. */
export function windowOf(b: Pick<CompiledBehavior, 'windowMs' | 'bucketMs'>, t: number) {
  const lo = t - b.windowMs + 1;
  const hi = t;
  return {
    lo,
    hi,
    kLo: Math.floor(lo / b.bucketMs),
    kHi: Math.floor(hi / b.bucketMs),
    /** The first bucket starts before the window: read its suffix from `lo`. */
    startPartial: lo % b.bucketMs !== 0,
    /** The last bucket ends after the window: its part after `hi` must be taken out. */
    endPartial: (hi + 1) % b.bucketMs !== 0,
  };
}

/** Bucket suffixes an event's answer needs: [bucket, from]. Unique may later need the whole last bucket. */
export function suffixNeeds(b: CompiledBehavior, t: number): [number, number][] {
  const w = windowOf(b, t);
  const needs: [number, number][] = [];
  if (w.startPartial) needs.push([w.kLo, w.lo]);
  if (w.endPartial) needs.push([w.kHi, w.hi + 1]);
  return needs;
}

/** For unique: stored points after `t` in the last bucket mean the bucket's set is too wide; read it whole. */
export function needsWholeLastBucket(b: CompiledBehavior, view: PairView, t: number): number | null {
  const w = windowOf(b, t);
  if (b.operation !== 'unique' || !w.endPartial) return null;
  const suffix = view.suffixes.get(w.kHi);
  if (suffix && suffix.from <= w.kHi * b.bucketMs) return null;
  return suffix?.points.some((p) => p.at > w.hi) ? w.kHi : null;
}

class Accumulator {
  count = 0;
  sum = 0;
  readonly known = new Set<string>();
  hll: HyperLogLog | null = null;

  point(p: Point, sign = 1): void {
    this.count += sign;
    if (p.value !== null) this.sum += sign * p.value;
    if (p.item !== null && sign > 0) this.known.add(p.item);
  }

  bucket(s: BucketState): void {
    this.count += s.count;
    this.sum += s.sum;
    s.items?.forEach((i) => this.known.add(i));
    if (s.hll) {
      this.hll ??= new HyperLogLog();
      this.hll.merge(s.hll);
    }
  }

  uniqueCount(): number {
    if (!this.hll) return this.known.size;
    for (const item of this.known) this.hll.add(item);
    return Math.max(this.hll.estimate(), this.known.size);
  }
}

/**
 * The behavior's value for an event at `t`: stored buckets fully inside the window, the exact suffix of the first
 * bucket, the last bucket minus its stored points after `t` (unique: its exact points up to `t`), plus `earlier`
 * — this batch's not-yet-stored events of the same group up to and including this one.
 */
export function answer(b: CompiledBehavior, view: PairView, t: number, earlier: readonly Point[]): BehaviorValue {
  const w = windowOf(b, t);
  const acc = new Accumulator();
  for (let k = w.kLo; k <= w.kHi; k++) {
    const bucket = view.buckets.get(k);
    if (k === w.kLo && w.startPartial) {
      const suffix = view.suffixes.get(k);
      if (!suffix || suffix.from > w.lo) throw new Error(`behavior ${b.name}: bucket ${k} suffix from ${w.lo} was not read`);
      for (const p of suffix.points) if (p.at >= w.lo) acc.point(p);
    } else if (k === w.kHi && w.endPartial) {
      const suffix = view.suffixes.get(k);
      if (!suffix || suffix.from > w.hi + 1) throw new Error(`behavior ${b.name}: bucket ${k} suffix from ${w.hi + 1} was not read`);
      const after = suffix.points.filter((p) => p.at > w.hi);
      if (b.operation !== 'unique' || after.length === 0) {
        if (bucket) acc.bucket(bucket);
        for (const p of after) acc.point(p, -1);
      } else {
        if (suffix.from > k * b.bucketMs) throw new Error(`behavior ${b.name}: bucket ${k} was not read whole`);
        for (const p of suffix.points) if (p.at <= w.hi) acc.point(p);
      }
    } else if (bucket) acc.bucket(bucket);
  }
  for (const p of earlier) if (p.at >= w.lo && p.at <= w.hi) acc.point(p);
  const unique = b.operation === 'unique' ? acc.uniqueCount() : null;
  return {
    count: b.operation === 'count' ? acc.count : null,
    // Bucket sums minus edge points accumulate binary rounding noise; 15 significant digits drop it.
    sum: b.operation === 'sum' ? Number(acc.sum.toPrecision(15)) : null,
    unique,
    values: b.returnValues ? [...acc.known].sort().slice(0, MAX_RETURN_VALUES) : null,
  };
}

/** Adds one event to a bucket's aggregate (returns a new state; the input is not changed). */
export function addToBucket(b: CompiledBehavior, state: BucketState | undefined, p: Point): BucketState {
  const next: BucketState = {
    count: (state?.count ?? 0) + 1,
    sum: (state?.sum ?? 0) + (p.value ?? 0),
    items: state ? state.items && [...state.items] : b.operation === 'unique' ? [] : null,
    hll: state?.hll ? new HyperLogLog(state.hll.registers) : null,
  };
  if (b.operation !== 'unique' || p.item === null) return next;
  if (next.hll) next.hll.add(p.item);
  else if (next.items && !next.items.includes(p.item)) {
    next.items.push(p.item);
    if (next.items.length > EXACT_UNIQUE_BOUND) {
      next.hll = new HyperLogLog();
      for (const item of next.items) next.hll.add(item);
      // Kept as a sample for return_values; the registers count.
      next.items = next.items.slice(0, MAX_RETURN_VALUES);
    }
  }
  return next;
}
