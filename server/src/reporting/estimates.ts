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

/** Table sizes for the GraphQL cost model, read at most once per `maxAgeMs` (tables grow, never in a moment). */
export class RowEstimates {
  private cached: { at: number; rows: Promise<TableRows> } | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly maxAgeMs = 10_000,
  ) {}

  current(now = Date.now()): Promise<TableRows> {
    if (!this.cached || now - this.cached.at > this.maxAgeMs) {
      const rows = (async () => {
        const out = {} as TableRows;
        for (const table of TABLES) out[table] = await plannedRows(this.db, table);
        return out;
      })();
      this.cached = { at: now, rows };
      // A failed read is not kept: the next operation asks again.
      rows.catch(() => (this.cached = undefined));
    }
    return this.cached.rows;
  }
}
