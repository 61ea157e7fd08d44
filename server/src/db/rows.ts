import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './handle.js';

/**
 * One array parameter per column (`unnest($1::text[], $2::text[], …)`) instead of one parameter per cell:
 * a 500-row insert becomes a dozen parameters, which is much cheaper to build, send and plan.
 */
export function column(values: readonly unknown[], type: string): SQL {
  return sql`${sql.param(values)}::${sql.raw(type)}[]`;
}

/** Rows of a raw query, the same on node-postgres and PGlite. */
export async function rows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
