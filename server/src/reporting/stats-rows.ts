import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { VigilError } from '../errors.js';

/** Rows one aggregate may answer: enough for a chart or a table, never an export (use the export routes). */
export const MAX_STATS_ROWS = 10_000;

/**
 * Runs an aggregate asking for one row more than MAX_STATS_ROWS and refuses a larger answer with
 * `query_too_expensive`, so a group-by over user × hour cannot build an answer of millions of rows.
 */
export async function statsRows<T>(db: Queryable, query: SQL, what: string): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  if (result.rows.length > MAX_STATS_ROWS) {
    throw new VigilError(
      'query_too_expensive',
      `${what} has more than ${MAX_STATS_ROWS.toLocaleString('en')} groups; group by fewer keys, use a wider bucket or narrow the filter`,
    );
  }
  return result.rows;
}
