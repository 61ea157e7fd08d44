import { sql as drizzleSql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { sql, type Sql } from '../db/statement.js';

interface PlanNode {
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** A statement piece of the hot path (db/statement.ts) as drizzle SQL, its parameters bound the same way. */
export function asDrizzle(statement: Sql): SQL {
  const chunks = statement.strings.map((text, i) =>
    i < statement.values.length ? drizzleSql`${drizzleSql.raw(text)}${statement.values[i]}` : drizzleSql.raw(text),
  );
  return drizzleSql.join(chunks);
}

/**
 * Every row every node of `SELECT part`'s plan produced, run with EXPLAIN ANALYZE (loops counted: a subquery run
 * per input row counts each run). Unlike the rows returned, this grows when a lookup scans more of a table: what a
 * test of "the work per event does not grow with what is stored" compares.
 */
export async function rowsProcessed(db: Queryable, part: Sql): Promise<number> {
  const [row] = await rows<{ 'QUERY PLAN': unknown }>(db, asDrizzle(sql`EXPLAIN (ANALYZE, FORMAT JSON) SELECT ${part}`));
  const raw = row!['QUERY PLAN'];
  const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const walk = (node: PlanNode): number =>
    (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) + (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk(plan.Plan);
}
