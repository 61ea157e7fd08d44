import { SPAN_BUCKETS } from '@vigil/drizzle/schema';
import { MAX_RETURN_VALUES } from './config.js';
import type { CompiledBehavior } from './definition.js';
import { HyperLogLog } from './hll.js';

/** A bucket keeps its distinct values exactly up to this many, then switches to HyperLogLog registers. */
export const EXACT_UNIQUE_BOUND = 1000;

export const spanOf = (bucket: number) => Math.floor(bucket / SPAN_BUCKETS);

export interface BucketState {
  count: number;
  sum: number;
  /** Distinct values (unique only): all of them while `hll` is null, a sample of at most 100 after; null for count/sum. */
  items: string[] | null;
  hll: HyperLogLog | null;
  /** Earliest and latest event time in the bucket; null when not known (buckets written before they were kept). */
  firstAt: number | null;
  lastAt: number | null;
}

/** One counted event: its time (epoch ms), its summed value and its unique value. */
export interface Point {
  at: number;
  value: number | null;
  item: string | null;
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
  };
}

/**
 * Where an event's window is cut for reading: whole buckets [bodyFrom, last) are summed by the database; the
 * first bucket (`first`), when it starts before the window, contributes its points in [headFrom, headTo); the last
 * bucket (the one the event lands in) is read whole, less its points in [tailFrom, tailTo) — stored events later
 * than this one, which only late events have. Unique cannot subtract, so with a tail it takes the distinct items
 * of the last bucket's points in [lastStart, tailFrom) instead. Points are read only where a bucket's first and
 * last event times say the cut splits it: a first bucket wholly inside the window is summed with the body.
 *
 * The body's whole spans [spanLo, spanHi] are read as span rows where built, as their buckets where not; the
 * buckets before the first span ([bodyFrom, leftTo)) and after the last one ([rightFrom, last)) are read as buckets.
 * Without a whole span, leftTo is `last` and the body is buckets only.
 */
export function windowCuts(b: Pick<CompiledBehavior, 'windowMs' | 'bucketMs'>, t: number) {
  const w = windowOf(b, t);
  const bodyFrom = w.startPartial ? w.kLo + 1 : w.kLo;
  const spanLo = Math.ceil(bodyFrom / SPAN_BUCKETS);
  const spanHi = Math.floor(w.kHi / SPAN_BUCKETS) - 1;
  const spans = spanLo <= spanHi;
  return {
    first: w.kLo,
    bodyFrom,
    spanLo,
    spanHi,
    leftTo: spans ? spanLo * SPAN_BUCKETS : w.kHi,
    rightFrom: spans ? (spanHi + 1) * SPAN_BUCKETS : w.kHi,
    last: w.kHi,
    headFrom: w.lo,
    headTo: w.startPartial ? (w.kLo + 1) * b.bucketMs : w.lo,
    lastStart: w.kHi * b.bucketMs,
    tailFrom: w.hi + 1,
    tailTo: (w.kHi + 1) * b.bucketMs,
    /** The later buckets whose windows may hold the last one are (last, laterTo]: their summaries count it. */
    laterTo: w.kHi + summaryReach(b),
  };
}

/** How many buckets after a bucket can have it in their window's body: a window spans at most ceil(window / bucket) + 1. */
export const summaryReach = (b: Pick<CompiledBehavior, 'windowMs' | 'bucketMs'>) => Math.ceil(b.windowMs / b.bucketMs) + 1;

/**
 * A window summary: the sums of the body [bodyFrom, bucket) kept in the bucket's own row, so the later events
 * landing in the bucket read that row instead of the body. Items: the body's distinct items (unique), else null.
 */
export interface Summary {
  bodyFrom: number;
  count: number;
  sum: number;
  items: string[] | null;
  /** Read from the bucket's own row: the write keeps its stored items instead of sending them again. */
  stored?: boolean;
}

/** A summary keeps at most this many distinct items: more would make the last bucket's row, rewritten by every event, large. */
export const SUMMARY_MAX_ITEMS = 256;

/**
 * What the database answered for one event's window, all of it stored before this batch: one row, whatever the
 * history, as the database aggregates the buckets and edge points itself.
 */
export interface WindowRead {
  /** Whole buckets before the last: their count and sum; for unique their distinct items and HyperLogLogs. */
  body: { count: number; sum: number; items: string[]; hlls: HyperLogLog[] };
  /** Points of the first bucket from the window's start (none when the window starts on a bucket boundary). */
  head: { count: number; sum: number; items: string[] };
  /** Points of the last bucket later than the event. */
  tail: { count: number; sum: number };
  /** Unique with a tail only: distinct items of the last bucket's points up to the event. */
  lastItems: string[] | null;
  /** Whole spans of the body that were read as their buckets and are worth building (see SPAN_MIN_BUCKETS). */
  unbuilt: number[];
  /** The last bucket's span is built: writing the bucket must drop it. */
  lastSpanned: boolean;
  /**
   * What the last bucket's summary is once the batch writes it: the one it holds when the body was read from it,
   * the body as read when that is exact and small enough, else null.
   */
  summary: Summary | null;
  /**
   * Buckets whose summaries the write clears: the later ones whose bodies hold the last bucket (writing it makes them
   * stale), and the earlier ones read (only an event landing there, late, would read theirs: a group keeps about one).
   */
  stale: number[];
}

class Accumulator {
  count = 0;
  sum = 0;
  readonly known = new Set<string>();
  hll: HyperLogLog | null = null;

  point(p: Point): void {
    this.count += 1;
    if (p.value !== null) this.sum += p.value;
    if (p.item !== null) this.known.add(p.item);
  }

  part(count: number, sum: number, items: readonly string[] | null, hlls: readonly HyperLogLog[] = []): void {
    this.count += count;
    this.sum += sum;
    items?.forEach((i) => this.known.add(i));
    for (const h of hlls) {
      this.hll ??= new HyperLogLog();
      this.hll.merge(h);
    }
  }

  bucket(s: BucketState): void {
    this.part(s.count, s.sum, s.items, s.hll ? [s.hll] : []);
  }

  uniqueCount(): number {
    if (!this.hll) return this.known.size;
    for (const item of this.known) this.hll.add(item);
    return Math.max(this.hll.estimate(), this.known.size);
  }
}

/**
 * The behavior's value for an event at `t`: what the database summed for its window (see windowCuts), the last
 * bucket as stored (`last`, undefined when empty) less its tail, plus `earlier` — this batch's not-yet-stored
 * events of the same group up to and including this one.
 */
export function answer(b: CompiledBehavior, read: WindowRead, last: BucketState | undefined, t: number, earlier: readonly Point[]): BehaviorValue {
  const w = windowOf(b, t);
  const acc = new Accumulator();
  acc.part(read.body.count, read.body.sum, read.body.items, read.body.hlls);
  acc.part(read.head.count, read.head.sum, read.head.items);
  if (b.operation !== 'unique' || read.tail.count === 0) {
    if (last) acc.bucket(last);
    acc.part(-read.tail.count, -read.tail.sum, null);
  } else {
    if (read.lastItems === null) throw new Error(`behavior ${b.name}: the last bucket's items up to ${t} were not read`);
    acc.part(0, 0, read.lastItems);
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
    // A bucket whose span was not kept stays unknown: its earlier events' times are not in the state.
    firstAt: !state ? p.at : state.firstAt === null ? null : Math.min(state.firstAt, p.at),
    lastAt: !state ? p.at : state.lastAt === null ? null : Math.max(state.lastAt, p.at),
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
