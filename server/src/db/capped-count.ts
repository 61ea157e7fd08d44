import { sql, type SQL, type Subquery } from 'drizzle-orm';
import type { Queryable } from './handle.js';
import { VigilError } from '../errors.js';

/** A select of the rows to count, before `.limit(…).as(…)`: drizzle's builders differ in type, not in shape. */
interface Countable {
  limit(n: number): { as(alias: string): SQL.Aliased | Subquery };
}

/**
 * `count(*)` over at most `cap + 1` rows of `rows`, so a count reads no more than that; more than `cap` is refused
 * with `query_too_expensive`. For the embedded database, which cannot time a statement out.
 */
export async function cappedCount(db: Queryable, rows: Countable, cap: number, what: string): Promise<number> {
  const capped = rows.limit(cap + 1).as('capped') as Subquery;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  const n = Number(row?.n ?? 0);
  if (n > cap) {
    throw new VigilError(
      'query_too_expensive',
      `${what} matches more than ${cap.toLocaleString('en')} rows, the most one statement may read on the embedded database (VIGIL_REPORTING_MAX_SCAN_ROWS); narrow the filter, or use PostgreSQL`,
    );
  }
  return n;
}
