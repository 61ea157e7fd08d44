import type { Queryable } from '../db/handle.js';
import type { CompiledBehavior } from './definition.js';
import type { EventFacts } from './fields.js';
import {
  lockGroups,
  readBuckets,
  readWindows,
  writeCounts,
  type BucketKey,
  type BucketRow,
  type PointRow,
  type SpanWrites,
  type StaleSummaries,
  type WindowQuery,
} from './store.js';
import {
  addToBucket,
  answer,
  spanOf,
  summaryReach,
  windowCuts,
  type BehaviorValue,
  type BucketState,
  type Point,
  type Summary,
  type WindowRead,
} from './window.js';

interface Pair {
  behavior: CompiledBehavior;
  groupKey: string;
  /** This batch's events of the pair, in batch order. */
  events: { index: number; point: Point }[];
  /** Stored bucket states the batch lands in (absent: empty), updated as its events are added. */
  buckets: Map<number, BucketState | undefined>;
  /** Each distinct event time's window as read. */
  windows: Map<number, WindowRead>;
  /** Spans its windows read as buckets and found worth building. */
  unbuilt: Set<number>;
  /** Built spans among those of its windows' last buckets, as read. */
  built: Set<number>;
  /** Buckets whose summaries the batch's write clears (see WindowRead.stale). */
  stale: Set<number>;
}

/**
 * Counts a batch of events for the given behaviors and, when `answering`, returns each event's behavior values
 * (keyed by behavior name; behaviors that do not match, or whose group key is missing, are absent).
 *
 * Per batch, whatever its size: one lock statement, one read, and one write of points and buckets (and of the
 * spans the read found worth building). The read is one row per event and behavior (see readWindows): the database
 * sums each window's spans, buckets and edge points itself, so what crosses to the server does not grow with stored
 * history or with a window's events.
 * Without answers (backfill) only the buckets the events land in are read.
 */
export async function countEvents(
  tx: Queryable,
  behaviors: readonly CompiledBehavior[],
  facts: readonly EventFacts[],
  answering: boolean,
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
      if (!pair)
        pairs.set(
          key,
          (pair = { behavior, groupKey, events: [], buckets: new Map(), windows: new Map(), unbuilt: new Set(), built: new Set(), stale: new Set() }),
        );
      pair.events.push({ index, point: { at: f.at, value: behavior.value(f), item: behavior.item(f) } });
    }
  });
  if (pairs.size === 0) return results;
  await lockGroups(tx, [...pairs.keys()]);

  if (answering) {
    // An event's window ends in the bucket it lands in, so this read also brings every bucket the batch writes.
    const queries: WindowQuery[] = [];
    const owners: { pair: Pair; at: number }[] = [];
    for (const pair of pairs.values()) {
      const b = pair.behavior;
      for (const at of new Set(pair.events.map((e) => e.point.at))) {
        queries.push({ behaviorId: b.id, groupKey: pair.groupKey, unique: b.operation === 'unique', ...windowCuts(b, at) });
        owners.push({ pair, at });
      }
    }
    const reads = await readWindows(tx, queries);
    reads.forEach(({ read, last }, i) => {
      const { pair, at } = owners[i]!;
      pair.windows.set(at, read);
      pair.buckets.set(queries[i]!.last, last);
      for (const span of read.unbuilt) pair.unbuilt.add(span);
      if (read.lastSpanned) pair.built.add(spanOf(queries[i]!.last));
      for (const bucket of read.stale) pair.stale.add(bucket);
    });
  } else {
    const keys: BucketKey[] = [];
    const owners: Pair[] = [];
    for (const pair of pairs.values()) {
      const b = pair.behavior;
      for (const bucket of new Set(pair.events.map((e) => Math.floor(e.point.at / b.bucketMs)))) {
        keys.push({ behaviorId: b.id, groupKey: pair.groupKey, bucket });
        owners.push(pair);
      }
    }
    const states = await readBuckets(tx, keys);
    states.forEach((state, i) => owners[i]!.buckets.set(keys[i]!.bucket, state));
  }

  const points: PointRow[] = [];
  const buckets: BucketRow[] = [];
  const spans: SpanWrites = { drop: [], build: [] };
  const stale: StaleSummaries[] = [];
  for (const pair of pairs.values()) {
    const b = pair.behavior;
    if (answering) {
      const earlier: Point[] = [];
      for (const { index, point } of pair.events) {
        earlier.push(point);
        const last = pair.buckets.get(Math.floor(point.at / b.bucketMs));
        results[index]![b.name] = answer(b, pair.windows.get(point.at)!, last, point.at, earlier);
      }
    }
    const touched = new Set<number>();
    for (const { point } of pair.events) {
      points.push({ behaviorId: b.id, groupKey: pair.groupKey, ...point });
      const bucket = Math.floor(point.at / b.bucketMs);
      pair.buckets.set(bucket, addToBucket(b, pair.buckets.get(bucket), point));
      touched.add(bucket);
    }
    const group = { behaviorId: b.id, groupKey: pair.groupKey };
    for (const bucket of touched) buckets.push({ ...group, bucket, state: pair.buckets.get(bucket)!, summary: summaryOf(pair, bucket, touched, answering) });
    // A bucket's write makes the summaries of the later buckets whose bodies hold it stale: the read found them (and
    // the earlier ones no event but a late one reads); a backfill, which reads no window, clears every one that can be.
    const except = [...touched];
    if (answering) for (const bucket of pair.stale) stale.push({ ...group, after: bucket - 1, to: bucket, except });
    else for (const bucket of touched) stale.push({ ...group, after: bucket, to: bucket + summaryReach(b), except });
    const written = new Set([...touched].map(spanOf));
    for (const span of written) {
      // Without answers no window was read, so whether the span is built is not known: it is dropped if it is.
      if (!answering || pair.built.has(span)) spans.drop.push({ behaviorId: b.id, groupKey: pair.groupKey, span });
      // Built from its buckets before this write, it would miss it: it waits for a later read.
      pair.unbuilt.delete(span);
    }
    for (const span of pair.unbuilt) spans.build.push({ behaviorId: b.id, groupKey: pair.groupKey, span, unique: b.operation === 'unique' });
  }
  await writeCounts(tx, points, buckets, spans, stale);
  return results;
}

/**
 * The summary a written bucket keeps: the one its latest event's read found or made (a bucket's events share one body
 * unless the window is not a whole number of buckets; the summary names its body's first bucket), when the batch
 * writes no other bucket of the group: another one before it would be in its body and not in the summary.
 */
function summaryOf(pair: Pair, bucket: number, touched: Set<number>, answering: boolean): Summary | null {
  if (!answering || touched.size !== 1) return null;
  const b = pair.behavior;
  let at: number | undefined;
  for (const { point } of pair.events) if (Math.floor(point.at / b.bucketMs) === bucket && (at === undefined || point.at > at)) at = point.at;
  return at === undefined ? null : (pair.windows.get(at)?.summary ?? null);
}
