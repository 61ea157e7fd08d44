import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { column, rows } from '../db/rows.js';
import { HyperLogLog } from './hll.js';
import type { BucketState, Point } from './window.js';

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

export interface Range {
  behaviorId: string;
  groupKey: string;
  from: number;
  /** Inclusive for buckets, exclusive for points. */
  to: number;
}

export async function readBuckets(tx: Queryable, ranges: Range[]): Promise<{ range: number; bucket: number; state: BucketState }[]> {
  if (ranges.length === 0) return [];
  const found = await rows<{ n: number; bucket: number; count: number; sum: number; items: string[] | null; hll: string | null }>(
    tx,
    sql`SELECT q.n::int AS n, b.bucket::float8 AS bucket, b.count::float8 AS count, b.sum, b.items, encode(b.hll, 'hex') AS hll
        FROM unnest(${column(ranges.map((r) => r.behaviorId), 'text')}, ${column(ranges.map((r) => r.groupKey), 'text')},
                    ${column(ranges.map((r) => r.from), 'int8')}, ${column(ranges.map((r) => r.to), 'int8')})
             WITH ORDINALITY AS q(id, g, f, t, n)
        JOIN behavior_buckets b ON b.behavior_id = q.id AND b.group_key = q.g AND b.bucket BETWEEN q.f AND q.t`,
  );
  return found.map((r) => ({
    range: r.n - 1,
    bucket: Number(r.bucket),
    state: { count: Number(r.count), sum: Number(r.sum), items: r.items, hll: r.hll ? HyperLogLog.fromHex(r.hll) : null },
  }));
}

export async function readPoints(tx: Queryable, ranges: Range[]): Promise<{ range: number; point: Point }[]> {
  if (ranges.length === 0) return [];
  const found = await rows<{ n: number; at: number; value: number | null; item: string | null }>(
    tx,
    sql`SELECT q.n::int AS n, p.at::float8 AS at, p.value, p.item
        FROM unnest(${column(ranges.map((r) => r.behaviorId), 'text')}, ${column(ranges.map((r) => r.groupKey), 'text')},
                    ${column(ranges.map((r) => r.from), 'int8')}, ${column(ranges.map((r) => r.to), 'int8')})
             WITH ORDINALITY AS q(id, g, f, t, n)
        JOIN behavior_points p ON p.behavior_id = q.id AND p.group_key = q.g AND p.at >= q.f AND p.at < q.t`,
  );
  return found.map((r) => ({
    range: r.n - 1,
    point: { at: Number(r.at), value: r.value === null ? null : Number(r.value), item: r.item },
  }));
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
