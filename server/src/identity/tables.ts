import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';

/**
 * The leaf partitions of a partitioned table (events by month, behavior points by day), oldest name first, or
 * the table itself when it is not partitioned. Erasure and export walk them one at a time, so each statement
 * reads one partition's index and a progress line can say how far along it is.
 */
export async function leafPartitions(db: Queryable, table: 'events' | 'behavior_points'): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`SELECT c.oid::regclass::text AS name FROM pg_partition_tree(${table}::regclass) t
        JOIN pg_class c ON c.oid = t.relid WHERE t.isleaf ORDER BY c.relname`,
  );
  return found.length ? found.map((r) => r.name) : [table];
}
