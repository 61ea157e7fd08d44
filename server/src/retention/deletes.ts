import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { SPAN_BUCKETS } from '@vigil/drizzle/schema';
import { bound, type PartitionedTable } from './partitions.js';

/**
 * Rows deleted per transaction: PGlite has one connection, so ingestion waits behind each one, and on PostgreSQL a
 * short transaction keeps the WAL and the locks it holds small.
 */
export const BATCH = 5_000;

/**
 * The retention run's deletions by age find their rows through an index on the time (migration 0016), oldest first
 * and a batch at a time: the daily run then reads what it deletes and a few index pages, not the whole table, and
 * with nothing to delete costs the same on a store of any size. `ctid = ANY(ARRAY(…))` deletes exactly the rows
 * the index found, by their address. Run each inside `deleteBatch`.
 */
function oldest(table: SQL, older: SQL, column: SQL): SQL {
  return sql`DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM ${table} WHERE ${older} ORDER BY ${column} LIMIT ${sql.raw(String(BATCH))}))`;
}

/** A batch of the default partition's rows older than `cutoff` (epoch ms). */
export function oldDefaultRows(spec: PartitionedTable, cutoff: number): SQL {
  const column = sql.identifier(spec.column);
  return oldest(sql`${sql.identifier(`${spec.table}_default`)}`, sql`${column} < ${bound(spec, cutoff)}`, sql`${column}`);
}

/** The first bucket `oldBuckets` keeps: buckets before it end at or before `cutoff` (epoch ms). */
const firstKept = (bucketMs: number, cutoff: number) => Math.floor(cutoff / bucketMs);

/**
 * A batch of one behavior's buckets that end at or before `cutoff` (epoch ms): `(bucket + 1) * bucketMs <= cutoff`.
 * By `bucket + 0`, the expression of the retention index (0020), which the window reads never use.
 */
export function oldBuckets(behaviorId: string, bucketMs: number, cutoff: number): SQL {
  const before = firstKept(bucketMs, cutoff);
  return oldest(sql`behavior_buckets`, sql`behavior_id = ${behaviorId} AND bucket + 0 < ${sql.raw(String(before))}`, sql`bucket + 0`);
}

/**
 * A batch of one behavior's spans holding any bucket `oldBuckets` deletes: a span is a sum of its buckets, and one
 * with a deleted bucket would count it still. A window that reads the rest of such a span reads its buckets.
 */
export function oldSpans(behaviorId: string, bucketMs: number, cutoff: number): SQL {
  const before = Math.ceil(firstKept(bucketMs, cutoff) / SPAN_BUCKETS);
  return oldest(sql`behavior_spans`, sql`behavior_id = ${behaviorId} AND span + 0 < ${sql.raw(String(before))}`, sql`span + 0`);
}

/**
 * Planner settings of a batch. Without statistics (PGlite has no autovacuum to gather them, and a table fresh from
 * an upgrade has none either) the planner guesses that a third of the table is older than the cutoff and prefers
 * reading it all and sorting; the daily run knows better, most days nothing is old. With sequential scans off the
 * planner takes the index whenever the statement can use it (and still finds a plan if it cannot). Bitmap scans are
 * off too: one builds the bitmap of every match and sorts them all before the LIMIT, so a backlog (the first run
 * after a long stop) would be read whole for each batch; an index scan walks the range in order and stops at the
 * batch's end.
 */
export const BY_INDEX = sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`;

/** One batch (`oldDefaultRows`, `oldBuckets`) in the caller's transaction: the rows it deleted. */
export async function deleteBatch(tx: Queryable, batch: SQL): Promise<number> {
  await tx.execute(BY_INDEX);
  return count(tx, batch);
}

/** Rows a DELETE removed, the same on both drivers. */
export async function count(tx: Queryable, statement: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(tx, sql`WITH d AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM d`);
  return Number(row?.n ?? 0);
}
