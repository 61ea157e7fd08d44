import { describe, expect, it } from 'vitest';
import { join, raw, sql, toQuery } from './statement.js';

describe('hot-path SQL pieces', () => {
  it('numbers the parameters of nested pieces in order', () => {
    const inner = sql`b = ${2} AND c = ${'three'}`;
    const query = toQuery(sql`SELECT * FROM t WHERE a = ${1} AND ${inner} AND d = ${null}`);
    expect(query).toEqual({ sql: 'SELECT * FROM t WHERE a = $1 AND b = $2 AND c = $3 AND d = $4', params: [1, 2, 'three', null] });
  });

  it('splices raw text without parameters, and pieces that start or end with a parameter', () => {
    const query = toQuery(sql`${sql`${1}`}${raw('::int')} + ${sql`${2}::int`}`);
    expect(query).toEqual({ sql: '$1::int + $2::int', params: [1, 2] });
  });

  it('joins pieces with a separator, keeping each piece’s parameters', () => {
    const query = toQuery(sql`SELECT ${join([sql`${'a'} AS r0`, raw('NULL AS r1'), sql`${'c'} AS r2`], ', ')}`);
    expect(query).toEqual({ sql: 'SELECT $1 AS r0, NULL AS r1, $2 AS r2', params: ['a', 'c'] });
    expect(toQuery(join([], ', '))).toEqual({ sql: '', params: [] });
  });

  it('keeps values that look like SQL as parameters', () => {
    expect(toQuery(sql`SELECT ${"'; DROP TABLE events; --"}`)).toEqual({ sql: 'SELECT $1', params: ["'; DROP TABLE events; --"] });
  });
});
