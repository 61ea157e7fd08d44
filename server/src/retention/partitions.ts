import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';

/**
 * A table range-partitioned by its own time (migration 0005). Events are cut by month: reporting reads by device,
 * identity or handprint carry no time range and probe every partition's index, so a year is 13 probes, not 365;
 * retention then keeps up to a month past its policy. Behavior points are cut by day: every read carries a time
 * range, and they are kept only as long as the longest window, often hours.
 */
export interface PartitionedTable {
  table: 'events' | 'behavior_points';
  /** The partition key: a timestamptz, or epoch milliseconds in a bigint. */
  column: 'occurred_at' | 'at';
  key: 'timestamptz' | 'epoch_ms';
  unit: 'month' | 'day';
  /** Partitions made beyond the current one, so the daily job can miss a few runs before events reach the default. */
  ahead: number;
}

export const EVENTS: PartitionedTable = { table: 'events', column: 'occurred_at', key: 'timestamptz', unit: 'month', ahead: 2 };
export const POINTS: PartitionedTable = { table: 'behavior_points', column: 'at', key: 'epoch_ms', unit: 'day', ahead: 7 };
export const PARTITIONED = [EVENTS, POINTS] as const;

/** One partition: its table name and its range [start, end) in epoch milliseconds. */
export interface Partition {
  name: string;
  start: number;
  end: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The start of the partition holding `ms`, shifted by `offset` partitions. */
export function partitionStart(spec: PartitionedTable, ms: number, offset = 0): number {
  const d = new Date(ms);
  return spec.unit === 'month'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + offset);
}

/** The partition starting at `start`; the names are those migration 0005 gives (`events_p202611`, `behavior_points_p20261123`). */
export function partitionAt(spec: PartitionedTable, start: number): Partition {
  const d = new Date(start);
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${spec.unit === 'day' ? pad(d.getUTCDate()) : ''}`;
  return { name: `${spec.table}_p${stamp}`, start, end: partitionStart(spec, start, 1) };
}

/** Partition names carry their range; anything else attached (the default partition) is not a range partition. */
function parseName(spec: PartitionedTable, name: string): Partition | null {
  const m = new RegExp(`^${spec.table}_p(\\d{4})(\\d{2})(\\d{2})?$`).exec(name);
  if (!m || (spec.unit === 'day') !== (m[3] !== undefined)) return null;
  return partitionAt(spec, Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1));
}

/** The range partitions of a table, oldest first. */
export async function listPartitions(db: Queryable, spec: PartitionedTable): Promise<Partition[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = ${spec.table}::regclass`,
  );
  return found
    .map((r) => parseName(spec, r.name))
    .filter((p): p is Partition => p !== null)
    .sort((a, b) => a.start - b.start);
}

/** A bound as SQL: a timestamptz literal or epoch milliseconds. */
export function bound(spec: PartitionedTable, ms: number) {
  return spec.key === 'timestamptz' ? sql.raw(`'${new Date(ms).toISOString()}'::timestamptz`) : sql.raw(String(ms));
}

/**
 * Makes the partition holding `start` if it is missing. Rows that reached the default partition in its range (the
 * partition was missing when they arrived) move into it first: PostgreSQL refuses to attach a range the default
 * still holds rows of. Attaching, unlike CREATE TABLE … PARTITION OF, leaves inserts into the parent running. The
 * columns keep the parent's compression (lz4 for an event's jsonb where the server has it, migration 0021).
 */
export async function ensurePartition(tx: Queryable, spec: PartitionedTable, start: number): Promise<Partition> {
  const p = partitionAt(spec, start);
  const name = sql.identifier(p.name);
  const parent = sql.identifier(spec.table);
  const fallback = sql.identifier(`${spec.table}_default`);
  const inRange = sql`${sql.identifier(spec.column)} >= ${bound(spec, p.start)} AND ${sql.identifier(spec.column)} < ${bound(spec, p.end)}`;
  await tx.execute(sql`CREATE TABLE ${name} (LIKE ${parent} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMPRESSION)`);
  await tx.execute(sql`WITH moved AS (DELETE FROM ${fallback} WHERE ${inRange} RETURNING *) INSERT INTO ${name} SELECT * FROM moved`);
  await tx.execute(sql`ALTER TABLE ${parent} ATTACH PARTITION ${name} FOR VALUES FROM (${bound(spec, p.start)}) TO (${bound(spec, p.end)})`);
  return p;
}
