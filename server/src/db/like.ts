import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** `text` with LIKE's wildcards (`%`, `_`) and its escape character (`\`, PostgreSQL's default) taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `column` starts with `prefix`, as a plain `LIKE 'prefix%'` (default escape `\`): the planner turns a literal
 * prefix into a btree range, so a `text_pattern_ops` index (or any btree under the C collation) serves it.
 */
export function startsWith(column: SQLWrapper, prefix: string): SQL {
  return sql`${column} LIKE ${`${escapeLike(prefix)}%`}`;
}
