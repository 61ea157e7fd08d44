import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { column, rows } from '../db/rows.js';
import { HyperLogLog } from './hll.js';
import type { BucketState, Point, WindowRead, windowCuts } from './window.js';

// Two-key advisory locks live in a key space apart from the one-key locks used for idempotency.
const LOCK_CLASS = 0x6268_7672; // "bhvr"

/**
 * Serialises every transaction that reads and then writes the same (behavior, group): across group commits and
 * across processes, each event sees exactly the events committed before it. Locks are taken in hash order so
 * two transactions can never wait on each other in a cycle.
 */
export async function lockGroups(tx: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int4, h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(${column(keys, 'text')}) AS k ORDER BY 1) AS locks`,
  );
}

interface BucketColumns {
  count: number | null;
  sum: number | null;
  items: string[] | null;
  hll: string | null;
}

/** A stored bucket's state, or undefined when the outer join found none. */
function bucketState(r: BucketColumns): BucketState | undefined {
  if (r.count === null) return undefined;
  return { count: Number(r.count), sum: Number(r.sum), items: r.items, hll: r.hll ? HyperLogLog.fromHex(r.hll) : null };
}

export interface BucketKey {
  behaviorId: string;
  groupKey: string;
  bucket: number;
}

/** The stored state of each bucket asked for (undefined: none yet), in the order asked. */
export async function readBuckets(tx: Queryable, keys: BucketKey[]): Promise<(BucketState | undefined)[]> {
  if (keys.length === 0) return [];
  const found = await rows<BucketColumns & { n: number }>(
    tx,
    sql`SELECT q.n::int AS n, b.count::float8 AS count, b.sum, b.items, encode(b.hll, 'hex') AS hll
        FROM unnest(${column(keys.map((k) => k.behaviorId), 'text')}, ${column(keys.map((k) => k.groupKey), 'text')},
                    ${column(keys.map((k) => k.bucket), 'int8')}) WITH ORDINALITY AS q(id, g, k, n)
        LEFT JOIN behavior_buckets b ON b.behavior_id = q.id AND b.group_key = q.g AND b.bucket = q.k`,
  );
  const states: (BucketState | undefined)[] = keys.map(() => undefined);
  for (const r of found) states[r.n - 1] = bucketState(r);
  return states;
}

/** One event's window for one (behavior, group), cut as windowCuts says. */
export interface WindowQuery extends ReturnType<typeof windowCuts> {
  behaviorId: string;
  groupKey: string;
  unique: boolean;
}

/**
 * Each window's stored part in one row: the database sums the body's buckets and the edges' points, so the rows
 * crossing to the server do not grow with history or with the events in a window. The last bucket comes whole,
 * as the event's own write needs it too.
 */
export async function readWindows(tx: Queryable, windows: WindowQuery[]): Promise<{ read: WindowRead; last: BucketState | undefined }[]> {
  if (windows.length === 0) return [];
  const col = (f: (w: WindowQuery) => unknown, type: string) => column(windows.map(f), type);
  const found = await rows<
    BucketColumns & {
      n: number;
      body_count: number;
      body_sum: number;
      body_items: string[] | null;
      body_hlls: string[] | null;
      head_count: number;
      head_sum: number;
      head_items: string[] | null;
      tail_count: number;
      tail_sum: number;
      last_items: string[] | null;
    }
  >(
    tx,
    // A bucket's items are unnested to one row each, so its count and sum are taken from its first row only.
    sql`SELECT w.n::int AS n,
               body.c AS body_count, body.s AS body_sum, body.items AS body_items, body.hlls AS body_hlls,
               head.c AS head_count, head.s AS head_sum, head.items AS head_items,
               tail.c AS tail_count, tail.s AS tail_sum,
               CASE WHEN w.uq AND tail.c > 0 THEN coalesce(lp.items, '{}') END AS last_items,
               b.count::float8 AS count, b.sum, b.items, encode(b.hll, 'hex') AS hll
        FROM unnest(${col((w) => w.behaviorId, 'text')}, ${col((w) => w.groupKey, 'text')}, ${col((w) => w.bodyFrom, 'int8')},
                    ${col((w) => w.last, 'int8')}, ${col((w) => w.headFrom, 'int8')}, ${col((w) => w.headTo, 'int8')},
                    ${col((w) => w.lastStart, 'int8')}, ${col((w) => w.tailFrom, 'int8')}, ${col((w) => w.tailTo, 'int8')},
                    ${col((w) => w.unique, 'bool')})
             WITH ORDINALITY AS w(id, g, body_from, last, head_from, head_to, last_start, tail_from, tail_to, uq, n)
        CROSS JOIN LATERAL (
          SELECT coalesce(sum(k.count) FILTER (WHERE x.o IS NULL OR x.o = 1), 0)::float8 AS c,
                 coalesce(sum(k.sum) FILTER (WHERE x.o IS NULL OR x.o = 1), 0) AS s,
                 array_agg(DISTINCT x.v) FILTER (WHERE x.v IS NOT NULL) AS items,
                 array_agg(encode(k.hll, 'hex')) FILTER (WHERE k.hll IS NOT NULL AND (x.o IS NULL OR x.o = 1)) AS hlls
          FROM behavior_buckets k LEFT JOIN LATERAL unnest(k.items) WITH ORDINALITY AS x(v, o) ON true
          WHERE k.behavior_id = w.id AND k.group_key = w.g AND k.bucket >= w.body_from AND k.bucket < w.last) AS body
        CROSS JOIN LATERAL (
          SELECT count(*)::float8 AS c, coalesce(sum(p.value), 0) AS s, array_agg(DISTINCT p.item) FILTER (WHERE p.item IS NOT NULL) AS items
          FROM behavior_points p
          WHERE p.behavior_id = w.id AND p.group_key = w.g AND p.at >= w.head_from AND p.at < w.head_to) AS head
        CROSS JOIN LATERAL (
          SELECT count(*)::float8 AS c, coalesce(sum(p.value), 0) AS s
          FROM behavior_points p
          WHERE p.behavior_id = w.id AND p.group_key = w.g AND p.at >= w.tail_from AND p.at < w.tail_to) AS tail
        LEFT JOIN LATERAL (
          SELECT array_agg(DISTINCT p.item) FILTER (WHERE p.item IS NOT NULL) AS items
          FROM behavior_points p
          WHERE w.uq AND tail.c > 0
            AND p.behavior_id = w.id AND p.group_key = w.g AND p.at >= w.last_start AND p.at < w.tail_from) AS lp ON true
        LEFT JOIN behavior_buckets b ON b.behavior_id = w.id AND b.group_key = w.g AND b.bucket = w.last`,
  );
  const out: { read: WindowRead; last: BucketState | undefined }[] = new Array(windows.length);
  for (const r of found) {
    out[r.n - 1] = {
      read: {
        body: { count: Number(r.body_count), sum: Number(r.body_sum), items: r.body_items ?? [], hlls: (r.body_hlls ?? []).map((h) => HyperLogLog.fromHex(h)) },
        head: { count: Number(r.head_count), sum: Number(r.head_sum), items: r.head_items ?? [] },
        tail: { count: Number(r.tail_count), sum: Number(r.tail_sum) },
        lastItems: r.last_items,
      },
      last: bucketState(r),
    };
  }
  return out;
}

export interface PointRow extends Point {
  behaviorId: string;
  groupKey: string;
}

export async function insertPoints(tx: Queryable, points: PointRow[]): Promise<void> {
  if (points.length === 0) return;
  await tx.execute(
    sql`INSERT INTO behavior_points (behavior_id, group_key, at, value, item)
        SELECT * FROM unnest(${column(points.map((p) => p.behaviorId), 'text')}, ${column(points.map((p) => p.groupKey), 'text')},
                             ${column(points.map((p) => p.at), 'int8')}, ${column(points.map((p) => p.value), 'float8')},
                             ${column(points.map((p) => p.item), 'text')})`,
  );
}

export interface BucketRow {
  behaviorId: string;
  groupKey: string;
  bucket: number;
  state: BucketState;
}

/** Writes whole bucket states: the caller holds the group's lock, so what it read is still current. */
export async function writeBuckets(tx: Queryable, buckets: BucketRow[]): Promise<void> {
  if (buckets.length === 0) return;
  const col = <T>(f: (b: BucketRow) => T) => buckets.map(f);
  await tx.execute(
    sql`INSERT INTO behavior_buckets (behavior_id, group_key, bucket, count, sum, items, hll)
        SELECT id, g, k, c, s, CASE WHEN it IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(it::jsonb)) END, decode(h, 'hex')
        FROM unnest(${column(col((b) => b.behaviorId), 'text')}, ${column(col((b) => b.groupKey), 'text')},
                    ${column(col((b) => b.bucket), 'int8')}, ${column(col((b) => b.state.count), 'int8')},
                    ${column(col((b) => b.state.sum), 'float8')},
                    ${column(col((b) => (b.state.items ? JSON.stringify(b.state.items) : null)), 'text')},
                    ${column(col((b) => b.state.hll?.toHex() ?? null), 'text')}) AS t(id, g, k, c, s, it, h)
        ON CONFLICT (behavior_id, group_key, bucket)
        DO UPDATE SET count = excluded.count, sum = excluded.sum, items = excluded.items, hll = excluded.hll`,
  );
}
