import type { Queryable } from '../db/handle.js';
import { preparedRows, sql, type Sql } from '../db/statement.js';

interface PlanNode {
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/**
 * Every row every node of `SELECT part`'s plan produced, run with EXPLAIN ANALYZE (loops counted: a subquery run
 * per input row counts each run). Unlike the rows returned, this grows when a lookup scans more of a table: what a
 * test of "the work per event does not grow with what is stored" compares.
 */
export async function rowsProcessed(db: Queryable, part: Sql): Promise<number> {
  return rowsProcessedBy(db, sql`SELECT ${part}`);
}

/** rowsProcessed of a whole statement (a read: EXPLAIN ANALYZE runs it). */
export async function rowsProcessedBy(db: Queryable, statement: Sql): Promise<number> {
  const [row] = await preparedRows<{ 'QUERY PLAN': unknown }>(db, sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
  const raw = row!['QUERY PLAN'];
  const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const walk = (node: PlanNode): number =>
    (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) + (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk(plan.Plan);
}
