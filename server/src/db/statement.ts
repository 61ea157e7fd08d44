import { createHash } from 'node:crypto';
import type { Queryable } from './handle.js';

const FRAGMENT = Symbol('vigil.sql');

/**
 * A piece of SQL and its parameters, for the ingest hot path. It does what drizzle's `sql` template does for the
 * few statements every group commit runs, at a fraction of the cost: nested pieces are flattened when they are
 * made, so building a statement is one pass, where drizzle walks and type-checks every chunk on every call.
 * Everything else in the server writes its queries with drizzle.
 */
export interface Sql {
  readonly [FRAGMENT]: true;
  /** Text around the parameters: always one more than `values`. */
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

const isSql = (value: unknown): value is Sql => typeof value === 'object' && value !== null && FRAGMENT in value;

/** Appends a piece to text being built: its first string joins the current one, its parameters follow. */
function splice(text: string[], params: unknown[], piece: Sql): void {
  text[text.length - 1] += piece.strings[0]!;
  for (let j = 0; j < piece.values.length; j++) {
    params.push(piece.values[j]);
    text.push(piece.strings[j + 1]!);
  }
}

/** Interpolated values become parameters; interpolated `Sql` pieces are spliced in with their parameters. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const text: string[] = [strings[0]!];
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (isSql(value)) {
      splice(text, params, value);
      text[text.length - 1] += strings[i + 1]!;
    } else {
      params.push(value);
      text.push(strings[i + 1]!);
    }
  });
  return { [FRAGMENT]: true, strings: text, values: params };
}

/** Trusted text (identifiers, fixed expressions), never user input. */
export const raw = (text: string): Sql => ({ [FRAGMENT]: true, strings: [text], values: [] });

export function join(parts: readonly Sql[], separator: string): Sql {
  const text: string[] = [''];
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) text[text.length - 1] += separator;
    splice(text, params, part);
  });
  return { [FRAGMENT]: true, strings: text, values: params };
}

/** The statement's text with `$1…$n` placeholders, and its parameters. */
export function toQuery(statement: Sql): { sql: string; params: unknown[] } {
  let text = statement.strings[0]!;
  for (let i = 0; i < statement.values.length; i++) text += `$${i + 1}${statement.strings[i + 1]!}`;
  return { sql: text, params: [...statement.values] };
}

/** Statement text → prepared statement name; bounded so that an unexpected variety of shapes cannot grow it. */
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 256;

/**
 * What drizzle's PGlite query holds: the client it runs on (PgliteGuard, or its transaction) and the options it
 * passes (which types to keep as PostgreSQL's text).
 */
interface PgliteQuery {
  client?: { prepared?(name: string, text: string, params: unknown[], options: unknown): Promise<{ rows: unknown[] }> };
  rawQueryConfig?: unknown;
}

/**
 * Rows of a statement run as a named prepared statement: parsed and planned once per connection instead of on
 * every call (the hot path's statements are long, and planning them cost as much as running them). The name is
 * derived from the text, so one name never stands for two statements. node-postgres prepares named statements
 * itself; drizzle's PGlite driver drops the name, so on PGlite the statement goes to PgliteGuard's `prepared` with
 * the options drizzle would have used.
 */
export async function preparedRows<T>(db: Queryable, statement: Sql): Promise<T[]> {
  const query = toQuery(statement);
  let name = preparedNames.get(query.sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `vigil_${createHash('sha1').update(query.sql).digest('hex').slice(0, 24)}`;
    preparedNames.set(query.sql, name);
  }
  const prepared = db._.session.prepareQuery(query, undefined, name, false);
  const { client, rawQueryConfig } = prepared as unknown as PgliteQuery;
  if (name !== undefined && client?.prepared && rawQueryConfig) {
    return (await client.prepared(name, query.sql, query.params, rawQueryConfig)).rows as T[];
  }
  const result = (await prepared.execute()) as unknown as { rows: T[] };
  return result.rows;
}
