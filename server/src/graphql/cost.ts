import { GraphQLError, Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { ComplexityEstimatorArgs } from 'graphql-query-complexity';
import type { TableRows } from '../reporting/estimates.js';

/**
 * The cost model. An item of a page costs 1 per field (lists cost their children × `first`). A field that reads a
 * table (a listing, `totalCount`, `riskSummary`, `facets`) costs what it may read: 1 per ROWS_PER_COST rows of
 * the planner's estimate, at least SCAN_FLOOR, so a handful of them fit in one operation and hundreds never do.
 */
export const MAX_COST = 50_000;
export const ROWS_PER_COST = 1_000;
export const SCAN_FLOOR = 500;
/** The events an indexed equality filter (deviceId, identity) is assumed to read. */
export const INDEXED_ROWS = 1_000;

/** One statement a field will run and the rows it may read. */
export interface Scan {
  field: string;
  rows: number;
}

/** Handed to every estimator through getComplexity's `context`. */
export interface CostContext {
  rows: TableRows;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  scans: Scan[];
}

const contextOf = (args: ComplexityEstimatorArgs) => args.context as CostContext;

/** Cost of reading: records each statement (for the embedded database's per-statement limit) and prices their sum. */
function scanning(args: ComplexityEstimatorArgs, field: string, ...statements: number[]): number {
  contextOf(args).scans.push(...statements.map((rows) => ({ field, rows })));
  const rows = statements.reduce((a, b) => a + b, 0);
  return Math.max(SCAN_FLOOR, Math.ceil(rows / ROWS_PER_COST));
}

/** Whether a selection asks for `name` directly, through inline fragments or through named fragments. */
function selects(set: SelectionSetNode | undefined, name: string, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): boolean {
  return (set?.selections ?? []).some((sel) => {
    if (sel.kind === Kind.FIELD) return sel.name.value === name;
    if (sel.kind === Kind.INLINE_FRAGMENT) return selects(sel.selectionSet, name, fragments, seen);
    if (seen.has(sel.name.value)) return false;
    seen.add(sel.name.value);
    return selects(fragments.get(sel.name.value)?.selectionSet, name, fragments, seen);
  });
}

const pageOf = (args: ComplexityEstimatorArgs, fallback: number) => (typeof args.args.first === 'number' ? args.args.first : fallback);

/** Cost of a plain list field: its children, once per item asked for. */
export const perItem =
  (defaultCount: number) =>
  (args: ComplexityEstimatorArgs): number =>
    1 + args.childComplexity * pageOf(args, defaultCount);

/**
 * A connection: its page (children × `first`; `totalCount` itself costs 0 there), the listing's read, and the
 * count's read when `totalCount` is selected. `rowsOf` says how many rows a read of this filter may touch.
 */
export const connectionCost =
  (name: string, defaultCount: number, rowsOf: (rows: TableRows, filter: Record<string, unknown>) => number) =>
  (args: ComplexityEstimatorArgs): number => {
    const context = contextOf(args);
    const rows = rowsOf(context.rows, (args.args.filter as Record<string, unknown> | null) ?? {});
    let cost = 1 + args.childComplexity * pageOf(args, defaultCount) + scanning(args, name, rows);
    if (selects((args.node as FieldNode).selectionSet, 'totalCount', context.fragments)) cost += scanning(args, `${name}.totalCount`, rows);
    return cost;
  };

/** Events a filter may read: without an indexed equality, all of them (they are ordered by event time). */
export const eventRows = (rows: TableRows, filter: Record<string, unknown>) =>
  filter.deviceId != null || filter.identity != null || filter.handprintId != null || filter.userId != null ? Math.min(rows.events, INDEXED_ROWS) : rows.events;

/** Devices and registrations are joined in full; a tag filter also probes each device's latest event. */
export const deviceRows = (rows: TableRows, filter: Record<string, unknown>) => (rows.devices + rows.registrations) * (filter.tag != null ? 2 : 1);

/** riskSummary runs two statements over the events (totals, tags). */
export const riskSummaryCost = (args: ComplexityEstimatorArgs) => {
  const { events } = contextOf(args).rows;
  return args.childComplexity + scanning(args, 'riskSummary', events, events);
};

/** facets: three statements over registrations, one over devices, one over the events (recent tags). */
export const facetsCost = (args: ComplexityEstimatorArgs) => {
  const { events, devices, registrations } = contextOf(args).rows;
  return args.childComplexity + scanning(args, 'facets', registrations, registrations, registrations, devices + registrations, events);
};

/** A refusal of the cost phase: which limit, and by how much. */
export function tooExpensive(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'query_too_expensive', http: { status: 400 } } });
}

const n = (x: number) => x.toLocaleString('en');

export function overBudget(cost: number, max: number, scans: readonly Scan[]): GraphQLError {
  const reads =
    scans.length > 0
      ? ` It reads ${n(scans.length)} times (${[...new Set(scans.map((s) => s.field))].join(', ')}), each costing what it may read (1 per ${n(ROWS_PER_COST)} rows, at least ${SCAN_FLOOR}).`
      : '';
  return tooExpensive(
    `Query costs ${n(cost)}; the limit is ${n(max)} (over by ${n(cost - max)}).${reads} Ask for fewer items, fields, counts or summaries, or narrow the filters.`,
  );
}

/** The embedded database cannot stop a statement once it runs: one that may read more than the limit is refused. */
export function overScanLimit(scan: Scan, max: number): GraphQLError {
  return tooExpensive(
    `${scan.field} may read about ${n(scan.rows)} rows; on the embedded database one statement may read at most ${n(max)} (VIGIL_REPORTING_MAX_SCAN_ROWS, over by ${n(scan.rows - max)}). Narrow the filter (deviceId or identity), or use PostgreSQL.`,
  );
}

/** eventStats: one statement over the events the filter may read (grouping by tag reads each event once too). */
export const eventStatsCost = (args: ComplexityEstimatorArgs) =>
  args.childComplexity + scanning(args, 'eventStats', eventRows(contextOf(args).rows, (args.args.filter as Record<string, unknown> | null) ?? {}));

/** deviceStats: the devices listing's join; grouping by tag also probes each device's latest event. */
export const deviceStatsCost = (args: ComplexityEstimatorArgs) => {
  const { rows } = contextOf(args);
  const filter = (args.args.filter as Record<string, unknown> | null) ?? {};
  const byTag = Array.isArray(args.args.groupBy) && args.args.groupBy.includes('tag');
  return args.childComplexity + scanning(args, 'deviceStats', deviceRows(rows, filter) + (byTag ? rows.devices : 0));
};
