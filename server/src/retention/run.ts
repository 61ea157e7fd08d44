import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { EVENTS, POINTS, PARTITIONED, bound, ensurePartition, listPartitions, partitionStart, type PartitionedTable } from './partitions.js';

const DAY_MS = 86_400_000;

// Any constant works; it only has to be the same in every Vigil process sharing a PostgreSQL database.
export const RETENTION_LOCK_KEY = 0x76_72_65_74; // "vret"

/** Points a little older than the longest window are kept, so an event a few minutes late still finds its edges. */
const POINTS_MARGIN_MS = DAY_MS;

export interface RetentionOptions {
  /** VIGIL_RETENTION_DAYS: events older than this many days (by their own time) are dropped; 0 keeps them forever. */
  retentionDays: number;
  now?: number;
  /** How long a lock on a busy table is waited for before the run gives up until the next one. */
  lockTimeoutMs?: number;
}

export interface DroppedPartition {
  table: string;
  partition: string;
  /** Size on disk when it was dropped. */
  bytes: number;
}

export interface RetentionReport {
  /** False when another process was running retention at the same time: this run did nothing. */
  ran: boolean;
  created: string[];
  dropped: DroppedPartition[];
  /** Rows deleted one by one: from default partitions (events that had no partition), idempotency keys, buckets. */
  deletedRows: Record<string, number>;
  /** Events older than this (ISO) are gone, or null when VIGIL_RETENTION_DAYS is 0. */
  eventsCutoff: string | null;
  /** Behavior points older than this (ISO) are gone: the longest enabled window, whatever the policy. */
  pointsCutoff: string;
}

/**
 * Creates the partitions ahead and drops what the policy no longer keeps, in one transaction that one process at a
 * time runs (an advisory lock; PGlite is one process). Events go by their own time, so an offline event older than
 * the policy is answered and counted, then gone by the next run: whole partitions older than the cutoff are
 * dropped, and events that had no partition (they wait in the default partition) are deleted once past it. Their
 * idempotency keys go with them. Behavior points and buckets are kept as long as the longest enabled window needs.
 */
export async function runRetention(db: Db, options: RetentionOptions): Promise<RetentionReport> {
  const now = options.now ?? Date.now();
  const report = await db.transaction(async (tx) => {
    const [lock] = await rows<{ got: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) AS got`);
    const result: RetentionReport = { ran: false, created: [], dropped: [], deletedRows: {}, eventsCutoff: null, pointsCutoff: '' };
    if (!lock?.got) return result;
    result.ran = true;
    // A drop waits for every read of the table to end, and inserts queue behind it: give up rather than stall ingestion.
    await tx.execute(sql.raw(`SET LOCAL lock_timeout = ${Math.round(options.lockTimeoutMs ?? 10_000)}`));

    for (const spec of PARTITIONED) result.created.push(...(await createAhead(tx, spec, now)));

    const pointsCutoff = now - (await longestWindowMs(tx)) - POINTS_MARGIN_MS;
    result.pointsCutoff = new Date(pointsCutoff).toISOString();
    result.dropped.push(...(await dropBefore(tx, POINTS, pointsCutoff)));
    result.deletedRows.behavior_points_default = await deleteDefaultBefore(tx, POINTS, pointsCutoff);
    result.deletedRows.behavior_buckets = await count(
      tx,
      sql`DELETE FROM behavior_buckets b USING behavior_definitions d
          WHERE d.id = b.behavior_id AND (b.bucket + 1) * d.bucket_ms <= ${pointsCutoff}`,
    );

    if (options.retentionDays > 0) {
      const cutoff = now - options.retentionDays * DAY_MS;
      result.eventsCutoff = new Date(cutoff).toISOString();
      const dropped = await dropBefore(tx, EVENTS, cutoff);
      result.dropped.push(...dropped);
      // Every event before the oldest partition still attached is gone now, or goes with the default's rows below.
      const kept = (await listPartitions(tx, EVENTS))[0];
      const keysCutoff = Math.min(cutoff, kept ? kept.start : cutoff);
      // One statement, one snapshot: a late event committed meanwhile keeps both its row and its key.
      const [{ deleted, keys }] = (await rows<{ deleted: number; keys: number }>(
        tx,
        sql`WITH gone AS (DELETE FROM events_default WHERE occurred_at < ${bound(EVENTS, cutoff)} RETURNING key_id, idempotency_key),
                 older AS (DELETE FROM event_keys WHERE occurred_at < ${bound(EVENTS, keysCutoff)} RETURNING 1),
                 theirs AS (DELETE FROM event_keys k USING gone g
                            WHERE k.key_id = g.key_id AND k.idempotency_key = g.idempotency_key
                              AND k.occurred_at >= ${bound(EVENTS, keysCutoff)}
                            RETURNING 1)
            SELECT (SELECT count(*) FROM gone)::int AS deleted,
                   ((SELECT count(*) FROM older) + (SELECT count(*) FROM theirs))::int AS keys`,
      )) as [{ deleted: number; keys: number }];
      result.deletedRows.events_default = deleted;
      result.deletedRows.event_keys = keys;
    }
    return result;
  });
  // Space freed row by row is reused only after a vacuum, and PGlite has no autovacuum; outside the transaction.
  const vacuum = Object.entries(report.deletedRows).filter(([, n]) => n > 0).map(([table]) => sql.identifier(table));
  if (vacuum.length > 0) await db.execute(sql`VACUUM ${sql.join(vacuum, sql`, `)}`);
  return report;
}

/** What a run did, in one line per change, for the log and `vigil retention run`. */
export function describeReport(report: RetentionReport): string[] {
  if (!report.ran) return ['another process is running retention; nothing done'];
  const lines = [
    `events kept from ${report.eventsCutoff ?? 'the beginning (VIGIL_RETENTION_DAYS=0)'}; behavior points from ${report.pointsCutoff}`,
    ...report.created.map((name) => `created partition ${name}`),
    ...report.dropped.map((d) => `dropped partition ${d.partition} (${d.bytes} bytes)`),
    ...Object.entries(report.deletedRows)
      .filter(([, n]) => n > 0)
      .map(([table, n]) => `deleted ${n} rows from ${table}`),
  ];
  if (report.dropped.length === 0 && Object.values(report.deletedRows).every((n) => n === 0)) lines.push('nothing to drop');
  return lines;
}

/** The partitions of the current period and `ahead` more; returns the names it made. */
async function createAhead(tx: Queryable, spec: PartitionedTable, now: number): Promise<string[]> {
  const existing = new Set((await listPartitions(tx, spec)).map((p) => p.start));
  const made: string[] = [];
  for (let i = 0; i <= spec.ahead; i++) {
    const start = partitionStart(spec, now, i);
    if (!existing.has(start)) made.push((await ensurePartition(tx, spec, start)).name);
  }
  return made;
}

/** Drops the partitions wholly older than `cutoff`. */
async function dropBefore(tx: Queryable, spec: PartitionedTable, cutoff: number): Promise<DroppedPartition[]> {
  const dropped: DroppedPartition[] = [];
  for (const p of await listPartitions(tx, spec)) {
    if (p.end > cutoff) break;
    const [size] = await rows<{ bytes: number }>(tx, sql`SELECT pg_total_relation_size(${p.name}::regclass)::float8 AS bytes`);
    await tx.execute(sql`DROP TABLE ${sql.identifier(p.name)}`);
    dropped.push({ table: spec.table, partition: p.name, bytes: Number(size?.bytes ?? 0) });
  }
  return dropped;
}

async function deleteDefaultBefore(tx: Queryable, spec: PartitionedTable, cutoff: number): Promise<number> {
  return count(tx, sql`DELETE FROM ${sql.identifier(`${spec.table}_default`)} WHERE ${sql.identifier(spec.column)} < ${bound(spec, cutoff)}`);
}

/** Rows a DELETE removed, the same on both drivers. */
async function count(tx: Queryable, statement: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rows<{ n: number }>(tx, sql`WITH d AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM d`);
  return Number(row?.n ?? 0);
}

/** The longest window among enabled behaviors, in milliseconds (0 without any). */
async function longestWindowMs(tx: Queryable): Promise<number> {
  const [row] = await rows<{ ms: number | null }>(
    tx,
    sql`SELECT max((definition->>'window_duration_seconds')::float8) * 1000 AS ms FROM behavior_definitions WHERE enabled`,
  );
  return Number(row?.ms ?? 0);
}
