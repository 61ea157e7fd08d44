import { type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable, Tx } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { pruneWebhookLog } from '../webhooks/prune.js';
import { BATCH, count, deleteBatch, oldBuckets, oldSpans, oldDefaultRows } from './deletes.js';
import { EVENTS, POINTS, PARTITIONED, bound, ensurePartition, listPartitions, partitionStart, type Partition, type PartitionedTable } from './partitions.js';

const DAY_MS = 86_400_000;

// Any constant works; it only has to be the same in every Vigil process sharing a PostgreSQL database.
export const RETENTION_LOCK_KEY = 0x76_72_65_74; // "vret"

/**
 * Points and buckets are kept a day past the window that reads them, so an event up to a day late (an offline
 * sync) still finds its whole window.
 */
const LATE_MARGIN_MS = DAY_MS;

/** What the operator keeps (the VIGIL_*RETENTION_DAYS settings). */
export interface RetentionPolicy {
  /** VIGIL_RETENTION_DAYS: events older than this many days (by their own time) are dropped; 0 keeps them forever. */
  retentionDays: number;
  /** VIGIL_WEBHOOK_RETENTION_DAYS: settled webhook messages and their delivery log go after this many days; 0 or absent keeps them. */
  webhookRetentionDays?: number;
}

export interface RetentionOptions extends RetentionPolicy {
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
  /** Settled webhook messages created before this (ISO) are gone, or null when they are kept. */
  webhooksCutoff: string | null;
}

/**
 * Creates the partitions ahead and drops what the policy no longer keeps; one process at a time runs it (an
 * advisory lock; PGlite is one process). Events go by their own time, so an offline event older than the policy is
 * answered and counted, then gone by the next run: whole partitions older than the cutoff are dropped, and events
 * that had no partition (they wait in the default partition) are deleted once past it. Their idempotency keys go
 * with them. Behavior points are kept as long as the longest enabled window needs (they share daily partitions), and
 * each behavior's buckets as long as its own window needs.
 *
 * Short transactions: attaching new partitions locks the default partition while it is checked; old behavior points
 * and buckets go a batch per transaction, found through an index (deletes.ts); a drop locks its whole table against
 * inserts until commit, so the drops come last, after the event rows' deletions (a month of idempotency keys can
 * take a while).
 */
export async function runRetention(db: Db, options: RetentionOptions): Promise<RetentionReport> {
  const now = options.now ?? Date.now();
  const report: RetentionReport = { ran: false, created: [], dropped: [], deletedRows: {}, eventsCutoff: null, pointsCutoff: '', webhooksCutoff: null };
  const lockTimeout = sql.raw(`SET LOCAL lock_timeout = ${Math.round(options.lockTimeoutMs ?? 10_000)}`);
  const alone = <T>(work: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      const [lock] = await rows<{ got: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) AS got`);
      if (!lock?.got) return false;
      // A lock on a busy table (a long reporting read) is given up on rather than stalling ingestion behind it.
      await tx.execute(lockTimeout);
      await work(tx);
      return true;
    });

  // Another process may take the lock between two batches; it then does the rest, and this run stops.
  const inBatches = async (table: string, batch: SQL) => {
    let deleted = report.deletedRows[table] ?? 0;
    for (let n = BATCH; n === BATCH; deleted += n) {
      if (!(await alone(async (tx) => (n = await deleteBatch(tx, batch))))) return false;
      report.deletedRows[table] = deleted + n;
    }
    return true;
  };

  let pointsCutoff = 0;
  let buckets: { id: string; bucketMs: number; keptMs: number }[] = [];
  report.ran = await alone(async (tx) => {
    for (const spec of PARTITIONED) report.created.push(...(await createAhead(tx, spec, now)));
    const behaviors = await behaviorWindows(tx);
    const longest = Math.max(0, ...behaviors.flatMap((b) => (b.enabled && b.windowMs !== null ? [b.windowMs] : [])));
    pointsCutoff = now - longest - LATE_MARGIN_MS;
    // A behavior's buckets serve its own window only: a 1 h counter beside a 7-day one keeps 25 hours of buckets, not
    // eight days (most of the bucket table in such a store). A disabled one's are kept no longer than the enabled
    // need: re-enabling it starts it again from stored events.
    buckets = behaviors.map((b) => ({ id: b.id, bucketMs: b.bucketMs, keptMs: Math.min(b.windowMs ?? longest, longest) }));
  });
  if (!report.ran) return report;

  report.pointsCutoff = new Date(pointsCutoff).toISOString();
  report.ran = await inBatches('behavior_points_default', oldDefaultRows(POINTS, pointsCutoff));
  for (const b of buckets) {
    const cutoff = now - b.keptMs - LATE_MARGIN_MS;
    if (report.ran) report.ran = await inBatches('behavior_buckets', oldBuckets(b.id, b.bucketMs, cutoff));
    if (report.ran) report.ran = await inBatches('behavior_spans', oldSpans(b.id, b.bucketMs, cutoff));
  }
  if (!report.ran) return report;

  report.ran = await alone(async (tx) => {
    const doomed: [PartitionedTable, Partition[]][] = [[POINTS, await olderThan(tx, POINTS, pointsCutoff)]];
    let keysCutoff: number | null = null;

    if (options.retentionDays > 0) {
      const cutoff = now - options.retentionDays * DAY_MS;
      report.eventsCutoff = new Date(cutoff).toISOString();
      const partitions = await listPartitions(tx, EVENTS);
      doomed.push([EVENTS, partitions.filter((p) => p.end <= cutoff)]);
      // Every event before the oldest partition kept goes: with its partition, or with the default's rows below.
      const kept = partitions.find((p) => p.end > cutoff);
      keysCutoff = Math.min(cutoff, kept ? kept.start : cutoff);
      // One statement, one snapshot: a late event committed meanwhile keeps both its row and its key (one landing
      // in a partition dropped below loses its key after the drops, in `orphans`).
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
      report.deletedRows.events_default = deleted;
      report.deletedRows.event_keys = keys;
    }
    for (const [spec, partitions] of doomed) report.dropped.push(...(await drop(tx, spec, partitions)));
    if (keysCutoff !== null) {
      // An event committed into a doomed partition after the statement above took its snapshot, and before the
      // drop locked the partition, went with the partition; its key did not. A new statement sees that commit, and
      // nothing can land there any more (the drops hold the table until commit), so key and event go together and
      // no retry ever finds a key without its answer.
      report.deletedRows.event_keys! += await count(tx, sql`DELETE FROM event_keys WHERE occurred_at < ${bound(EVENTS, keysCutoff)}`);
    }
  });
  if (!report.ran) return report;

  const webhookDays = options.webhookRetentionDays ?? 0;
  if (webhookDays > 0) {
    const cutoff = now - webhookDays * DAY_MS;
    report.webhooksCutoff = new Date(cutoff).toISOString();
    report.deletedRows.webhook_messages = 0;
    report.deletedRows.webhook_attempts = 0;
    for (let batch = BATCH; batch === BATCH; ) {
      let pruned = { messages: 0, attempts: 0 };
      if (!(await alone(async (tx) => (pruned = await pruneWebhookLog(tx, cutoff, BATCH))))) break;
      report.deletedRows.webhook_messages += pruned.messages;
      report.deletedRows.webhook_attempts += pruned.attempts;
      batch = pruned.messages;
    }
  }

  // Space freed row by row is reused only after a vacuum, and PGlite has no autovacuum; outside the transaction.
  const vacuum = Object.entries(report.deletedRows)
    .filter(([, n]) => n > 0)
    .map(([table]) => sql.identifier(table));
  if (vacuum.length > 0) await db.execute(sql`VACUUM ${sql.join(vacuum, sql`, `)}`);
  // The registry reads a device's most recent identities through the last_seen index, which bounds the read only
  // while the planner knows that a device has few of them (registry/association.ts); without statistics it scans
  // all of a kiosk's rows. PostgreSQL's autovacuum gathers them; PGlite has none, so the daily run does (a sample of
  // the table, on both: cheap, and the same code path everywhere).
  await db.execute(sql`ANALYZE device_identities`);
  return report;
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

/** The partitions wholly older than `cutoff`. */
async function olderThan(tx: Queryable, spec: PartitionedTable, cutoff: number): Promise<Partition[]> {
  return (await listPartitions(tx, spec)).filter((p) => p.end <= cutoff);
}

async function drop(tx: Queryable, spec: PartitionedTable, partitions: Partition[]): Promise<DroppedPartition[]> {
  const dropped: DroppedPartition[] = [];
  for (const p of partitions) {
    const [size] = await rows<{ bytes: number }>(tx, sql`SELECT pg_total_relation_size(${p.name}::regclass)::float8 AS bytes`);
    await tx.execute(sql`DROP TABLE ${sql.identifier(p.name)}`);
    dropped.push({ table: spec.table, partition: p.name, bytes: Number(size?.bytes ?? 0) });
  }
  return dropped;
}

/** Every behavior definition's window in milliseconds (null when it has none), enabled or not. */
async function behaviorWindows(tx: Queryable): Promise<{ id: string; bucketMs: number; enabled: boolean; windowMs: number | null }[]> {
  const found = await rows<{ id: string; bucket_ms: number; enabled: boolean; window_ms: number | null }>(
    tx,
    sql`SELECT id, bucket_ms, enabled, (definition->>'window_duration_seconds')::float8 * 1000 AS window_ms
        FROM behavior_definitions ORDER BY id`,
  );
  return found.map((r) => ({ id: r.id, bucketMs: Number(r.bucket_ms), enabled: r.enabled, windowMs: r.window_ms === null ? null : Number(r.window_ms) }));
}

/** What a run did, in one line per change, for the log and `vigil retention run`. */
export function describeReport(report: RetentionReport): string[] {
  if (!report.ran) return ['another process is running retention; nothing done'];
  const lines = [
    `events kept from ${report.eventsCutoff ?? 'the beginning (VIGIL_RETENTION_DAYS=0)'}; behavior points from ${report.pointsCutoff}; ` +
      `settled webhook messages from ${report.webhooksCutoff ?? 'the beginning (VIGIL_WEBHOOK_RETENTION_DAYS=0)'}`,
    ...report.created.map((name) => `created partition ${name}`),
    ...report.dropped.map((d) => `dropped partition ${d.partition} (${d.bytes} bytes)`),
    ...Object.entries(report.deletedRows)
      .filter(([, n]) => n > 0)
      .map(([table, n]) => `deleted ${n} rows from ${table}`),
  ];
  if (report.dropped.length === 0 && Object.values(report.deletedRows).every((n) => n === 0)) lines.push('nothing to drop');
  return lines;
}
