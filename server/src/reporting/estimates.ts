import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';

/** Rows in the tables reporting reads, as the planner estimates them. */
export interface TableRows {
  events: number;
  devices: number;
  registrations: number;
}

const TABLES = ['events', 'devices', 'registrations'] as const;

/**
 * The planner's row estimate of a whole table: from statistics scaled to the table's current size, or from its size
 * alone before the first ANALYZE; no rows are read, so it is cheap on both drivers.
 */
async function plannedRows(db: Queryable, table: string): Promise<number> {
  const result = (await db.execute(sql.raw(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table}`))) as unknown as { rows: Record<string, unknown>[] };
  const raw = Object.values(result.rows[0] ?? {})[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
  return Math.max(0, Math.round(plan[0].Plan['Plan Rows']));
}

/**
 * Table sizes for the GraphQL cost model, read again at most once per `maxAgeMs` (tables grow, never in a moment).
 * Only the first operation waits for them: later ones are priced with the last sizes while new ones are read, so
 * a busy reporting pool never holds up pricing.
 */
export class RowEstimates {
  private last: TableRows | undefined;
  private first: Promise<TableRows> | undefined;
  private readAt = 0;

  constructor(
    private readonly db: Queryable,
    private readonly maxAgeMs = 10_000,
  ) {}

  async current(now = Date.now()): Promise<TableRows> {
    if (this.last === undefined) {
      this.first ??= this.read(now).finally(() => (this.first = undefined));
      return this.first;
    }
    if (now - this.readAt > this.maxAgeMs) {
      this.readAt = now;
      // A failed read keeps the last sizes; the next stale operation asks again.
      this.read(now).catch(() => (this.readAt = 0));
    }
    return this.last;
  }

  private async read(now: number): Promise<TableRows> {
    const rows = {} as TableRows;
    for (const table of TABLES) rows[table] = await plannedRows(this.db, table);
    this.last = rows;
    this.readAt = now;
    return rows;
  }
}
