import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';

export interface TableStats {
  table: string;
  rows: number;
  /** Heap, indexes and TOAST of the table and all its partitions. */
  bytes: number;
  /** Attached partitions (the default one included); 0 for a plain table. */
  partitions: number;
}

export interface StorageStats {
  tables: TableStats[];
  /** Every table of Vigil's schema. */
  totalBytes: number;
  events: number;
  /** The events table alone per stored event, and the whole store per stored event (null without events). */
  eventBytesPerEvent: number | null;
  totalBytesPerEvent: number | null;
}

/**
 * Rows and bytes per table of Vigil's schema, partitions summed into their parent. Rows are counted exactly (a
 * sequential read: seconds for tens of millions of events), since planner estimates lag behind a dropped partition.
 */
export async function storageStats(db: Queryable): Promise<StorageStats> {
  const sizes = await rows<{ table: string; bytes: number; partitions: number }>(
    db,
    sql`SELECT coalesce(parent.relname, c.relname) AS "table",
               sum(pg_total_relation_size(c.oid))::float8 AS bytes,
               count(parent.oid)::int AS partitions
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
        LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
        LEFT JOIN pg_class parent ON parent.oid = i.inhparent
        WHERE c.relkind = 'r'
        GROUP BY 1
        ORDER BY 1`,
  );
  const tables: TableStats[] = [];
  for (const s of sizes) {
    const [counted] = await rows<{ n: number }>(db, sql`SELECT count(*)::float8 AS n FROM ${sql.identifier(s.table)}`);
    tables.push({ table: s.table, rows: Number(counted?.n ?? 0), bytes: Number(s.bytes), partitions: s.partitions });
  }
  const totalBytes = tables.reduce((sum, t) => sum + t.bytes, 0);
  const eventsTable = tables.find((t) => t.table === 'events');
  const events = eventsTable?.rows ?? 0;
  return {
    tables,
    totalBytes,
    events,
    eventBytesPerEvent: events > 0 ? Math.round(eventsTable!.bytes / events) : null,
    totalBytesPerEvent: events > 0 ? Math.round(totalBytes / events) : null,
  };
}
