import type { Queryable } from '../db/handle.js';
import type { CompiledBehavior } from './definition.js';
import type { EventFacts } from './fields.js';
import { insertPoints, lockGroups, readBuckets, readPoints, writeBuckets, type BucketRow, type PointRow, type Range } from './store.js';
import { addToBucket, answer, needsWholeLastBucket, suffixNeeds, windowOf, type BehaviorValue, type PairView, type Point } from './window.js';

interface Pair {
  behavior: CompiledBehavior;
  groupKey: string;
  /** This batch's events of the pair, in batch order. */
  events: { index: number; point: Point }[];
  view: PairView;
}

function mergeIntervals(intervals: [number, number][]): [number, number][] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/**
 * Counts a batch of events for the given behaviors and, when `answering`, returns each event's behavior values
 * (keyed by behavior name; behaviors that do not match, or whose group key is missing, are absent).
 *
 * Per batch, whatever its size: one lock statement, one read of bucket aggregates, one or two reads of edge
 * points, one insert of points and one upsert of buckets. Reads cover about 33 buckets and two partial buckets per
 * (behavior, group), so the cost does not grow with stored history or with the number of events in a window.
 */
export async function countEvents(
  tx: Queryable,
  behaviors: readonly CompiledBehavior[],
  facts: readonly EventFacts[],
  answering: boolean,
  /** Filled with how many rows were read, for tests of the cost bound. */
  stats?: { bucketRows: number; pointRows: number },
): Promise<Record<string, BehaviorValue>[]> {
  const results: Record<string, BehaviorValue>[] = facts.map(() => ({}));
  const pairs = new Map<string, Pair>();
  facts.forEach((f, index) => {
    for (const behavior of behaviors) {
      if (!behavior.matches(f)) continue;
      const groupKey = behavior.groupKey(f);
      if (groupKey === null) continue;
      const key = `${behavior.id} ${groupKey}`; // ids have no space, so this is unambiguous
      let pair = pairs.get(key);
      if (!pair) pairs.set(key, (pair = { behavior, groupKey, events: [], view: { buckets: new Map(), suffixes: new Map() } }));
      pair.events.push({ index, point: { at: f.at, value: behavior.value(f), item: behavior.item(f) } });
    }
  });
  if (pairs.size === 0) return results;
  await lockGroups(tx, [...pairs.keys()]);

  // What each pair's answers need: bucket ranges, and bucket suffixes (bucket → earliest point needed).
  const bucketRanges: Range[] = [];
  const bucketOwners: Pair[] = [];
  const suffixRanges: Range[] = [];
  const suffixOwners: { pair: Pair; bucket: number }[] = [];
  for (const pair of pairs.values()) {
    const b = pair.behavior;
    const intervals: [number, number][] = [];
    const suffixes = new Map<number, number>();
    for (const { point } of pair.events) {
      const w = windowOf(b, point.at);
      // Without answers (backfill), only the buckets the events land in are needed.
      intervals.push(answering ? [w.kLo, w.kHi] : [w.kHi, w.kHi]);
      if (!answering) continue;
      for (const [bucket, from] of suffixNeeds(b, point.at)) suffixes.set(bucket, Math.min(from, suffixes.get(bucket) ?? Infinity));
    }
    for (const [from, to] of mergeIntervals(intervals)) {
      bucketRanges.push({ behaviorId: b.id, groupKey: pair.groupKey, from, to });
      bucketOwners.push(pair);
    }
    for (const [bucket, from] of suffixes) {
      suffixRanges.push({ behaviorId: b.id, groupKey: pair.groupKey, from, to: (bucket + 1) * b.bucketMs });
      suffixOwners.push({ pair, bucket });
      pair.view.suffixes.set(bucket, { from, points: [] });
    }
  }
  const bucketRows = await readBuckets(tx, bucketRanges);
  const suffixRows = await readPoints(tx, suffixRanges);
  if (stats) {
    stats.bucketRows += bucketRows.length;
    stats.pointRows += suffixRows.length;
  }
  for (const row of bucketRows) bucketOwners[row.range]!.view.buckets.set(row.bucket, row.state);
  for (const row of suffixRows) {
    const { pair, bucket } = suffixOwners[row.range]!;
    pair.view.suffixes.get(bucket)!.points.push(row.point);
  }

  // Unique only: a last bucket holding stored points later than the event is read whole (rare: late events).
  if (answering) {
    const wholeRanges: Range[] = [];
    const wholeOwners: { pair: Pair; bucket: number }[] = [];
    for (const pair of pairs.values()) {
      const buckets = new Set<number>();
      for (const { point } of pair.events) {
        const bucket = needsWholeLastBucket(pair.behavior, pair.view, point.at);
        if (bucket !== null) buckets.add(bucket);
      }
      for (const bucket of buckets) {
        const suffix = pair.view.suffixes.get(bucket)!;
        const start = bucket * pair.behavior.bucketMs;
        wholeRanges.push({ behaviorId: pair.behavior.id, groupKey: pair.groupKey, from: start, to: suffix.from });
        wholeOwners.push({ pair, bucket });
        suffix.from = start;
      }
    }
    const wholeRows = await readPoints(tx, wholeRanges);
    if (stats) stats.pointRows += wholeRows.length;
    for (const row of wholeRows) {
      const { pair, bucket } = wholeOwners[row.range]!;
      pair.view.suffixes.get(bucket)!.points.push(row.point);
    }
  }

  const points: PointRow[] = [];
  const buckets: BucketRow[] = [];
  for (const pair of pairs.values()) {
    const b = pair.behavior;
    if (answering) {
      const earlier: Point[] = [];
      for (const { index, point } of pair.events) {
        earlier.push(point);
        results[index]![b.name] = answer(b, pair.view, point.at, earlier);
      }
    }
    const touched = new Set<number>();
    for (const { point } of pair.events) {
      points.push({ behaviorId: b.id, groupKey: pair.groupKey, ...point });
      const bucket = Math.floor(point.at / b.bucketMs);
      pair.view.buckets.set(bucket, addToBucket(b, pair.view.buckets.get(bucket), point));
      touched.add(bucket);
    }
    for (const bucket of touched) buckets.push({ behaviorId: b.id, groupKey: pair.groupKey, bucket, state: pair.view.buckets.get(bucket)! });
  }
  await insertPoints(tx, points);
  await writeBuckets(tx, buckets);
  return results;
}
