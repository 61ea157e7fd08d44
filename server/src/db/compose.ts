import type { Queryable } from './handle.js';
import { join, preparedRows, raw, sql, type Sql } from './statement.js';

/**
 * Rows handed to SQL as one JSON parameter, typed by `columns` (`k text, f timestamptz`):
 * `json_to_recordset($1::json) AS alias(columns)`. One parameter for a whole batch costs one JSON.stringify,
 * where an array parameter per column costs an escape per cell on both drivers.
 *
 * Rows with a `jsonb` column (properties, the response) go as jsonb: the input is parsed once into jsonb's tree,
 * and the nested values are taken from it whole instead of parsed again per column. Rows of scalars and arrays go as
 * json, which PostgreSQL only checks on input and then reads field by field without building that tree: for the
 * behaviors' window read (18 fields, 160 rows) 535 µs a statement against 795, and for the events' insert (two
 * nested values a row) jsonb's 450 against 555 (PostgreSQL 15, measured on one connection).
 */
export function records(values: readonly object[], columns: string, alias = 't'): Sql {
  return recordsJson(JSON.stringify(values), columns, alias);
}

/** `records` of rows already serialised as one JSON array. */
export function recordsJson(json: string, columns: string, alias = 't'): Sql {
  return KEEPS_JSONB.test(columns)
    ? sql`jsonb_to_recordset(${json}::jsonb) AS ${raw(alias)}(${raw(columns)})`
    : sql`json_to_recordset(${json}::json) AS ${raw(alias)}(${raw(columns)})`;
}

/** A column list with a jsonb column. */
const KEEPS_JSONB = /\bjsonb\b/i;

/** A list of values as a one-column set: `json_array_elements_text($1::json) AS alias(k)`. */
export function keys(values: readonly string[], alias = 'q'): Sql {
  return sql`json_array_elements_text(${JSON.stringify(values)}::json) AS ${raw(alias)}(k)`;
}

/**
 * `LATERAL (select OFFSET 0)`: the batch's lookups probe an index once per input row. The planner guesses 100 rows
 * for any json set function and, on tables it believes small (statistics lag behind a growing table), prefers a
 * sequential scan and a hash join that cost more with every row the table gains; the OFFSET keeps it from
 * flattening the lateral subquery into such a join.
 */
export function probe(select: Sql): Sql {
  return sql`LATERAL (${select} OFFSET 0)`;
}

/** A timestamp column read as epoch milliseconds, so json carries a plain number on both drivers. */
export const ms = (column: string) => raw(`(extract(epoch from ${column}) * 1000)::float8`);

/**
 * Runs several json-valued scalar subqueries as one statement (one round trip) and returns their values in order.
 * Each part is a parenthesised `SELECT json_…` expression; an empty result is null.
 */
export async function readAll(db: Queryable, parts: readonly Sql[]): Promise<unknown[]> {
  if (parts.length === 0) return [];
  const columns = join(
    parts.map((part, i) => sql`${part} AS ${raw(`r${i}`)}`),
    ', ',
  );
  const [row] = await preparedRows<Record<string, unknown>>(db, sql`SELECT ${columns}`);
  return parts.map((_, i) => row![`r${i}`] ?? null);
}

const CTE_NAME = Symbol('vigil.cte');

/**
 * `write` as a part of `writeAll` under a name of its own, so that a later part can read its RETURNING by that name
 * (a part can name only the parts before it). The name must be unique in the statement.
 */
export function named(name: string, write: Sql): Sql {
  return Object.assign({ ...write }, { [CTE_NAME]: name });
}

/**
 * Runs data-modifying statements as CTEs of one statement (one round trip, one commit when not in a transaction)
 * and returns the rows of `main`. PostgreSQL runs every data-modifying CTE to completion, read or not, with one
 * snapshot: the parts must not touch the same row twice. A `main` that reads a part's RETURNING is given the
 * parts' names, in order: `w0`, `w1`, … or the name a part was given (`named`).
 */
export async function writeAll<T>(db: Queryable, writes: readonly Sql[], main: Sql | ((names: Sql[]) => Sql)): Promise<T[]> {
  const names = writes.map((w, i) => raw((w as { [CTE_NAME]?: string })[CTE_NAME] ?? `w${i}`));
  const last = typeof main === 'function' ? main(names) : main;
  if (writes.length === 0) return preparedRows<T>(db, last);
  const ctes = join(
    writes.map((w, i) => sql`${names[i]!} AS (${w})`),
    ', ',
  );
  return preparedRows<T>(db, sql`WITH ${ctes} ${last}`);
}
