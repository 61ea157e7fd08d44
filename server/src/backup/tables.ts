import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';

/** Schemas a Vigil database consists of: its tables, and drizzle's record of applied migrations. */
export const VIGIL_SCHEMAS = ['public', 'drizzle'] as const;

/**
 * Every table of the database as the catalog lists it, partitions included (each on its own, and its parent too),
 * schema-qualified and quoted, in name order. Read from the catalog rather than the drizzle schema, so a table no
 * code knows about (a partition made by retention, a helper's new table) is never missed.
 */
export async function listTables(db: Queryable): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`SELECT c.oid::regclass::text AS name
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname IN ('public', 'drizzle')
        ORDER BY n.nspname, c.relname`,
  );
  return found.map((r) => r.name);
}

/** Exact row count of every table (`listTables`), for comparing a restored instance with its source. */
export async function tableCounts(db: Queryable): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await listTables(db)) {
    const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::float8 AS n FROM ${sql.raw(table)}`);
    counts[table] = row!.n;
  }
  return counts;
}
