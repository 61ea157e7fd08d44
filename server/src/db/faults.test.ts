import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseFault, faultKind, unavailableError } from './faults.js';

const sqlState = (code: string, message = 'from the server') => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const errno = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('faultKind', () => {
  it.each([
    [sqlState('57P01', 'terminating connection due to administrator command'), 'connection'],
    [sqlState('57P03', 'the database system is starting up'), 'connection'],
    [sqlState('08006'), 'connection'],
    [sqlState('53300', 'too many connections'), 'connection'],
    [errno('ECONNREFUSED'), 'connection'],
    [errno('ECONNRESET'), 'connection'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
    [new Error('timeout exceeded when trying to connect'), 'connection'],
    // PGlite's own client sees PostgreSQL's PANIC (here a flush to the disk that failed); its instance is dead.
    [Object.assign(sqlState('58030', 'could not fsync file "pg_wal/000000010000000000000001": Input/output error'), { severity: 'PANIC' }), 'connection'],
    [sqlState('53100', 'could not extend file'), 'disk_full'],
    [errno('ENOSPC'), 'disk_full'],
    [sqlState('25006', 'cannot execute INSERT in a read-only transaction'), 'read_only'],
    [new DatabaseFault('disk_full', 'refused'), 'disk_full'],
  ])('%s is a %s fault', (error, kind) => {
    expect(faultKind(error)).toBe(kind);
    // drizzle wraps driver errors; AggregateError carries one per address tried.
    expect(faultKind(new DrizzleQueryError('SELECT 1', [], error as Error))).toBe(kind);
    expect(faultKind(new AggregateError([new Error('other'), error]))).toBe(kind);
  });

  it.each([
    sqlState('23505', 'duplicate key value'),
    sqlState('42P01', 'relation does not exist'),
    sqlState('40001', 'could not serialize access'),
    new TypeError('x is undefined'),
    'a string',
    null,
  ])('%s is not a fault', (error) => {
    expect(faultKind(error)).toBeUndefined();
    expect(unavailableError(error)).toBeUndefined();
  });

  it('a fault becomes 503 unavailable with Retry-After and no internals', () => {
    const error = unavailableError(new DrizzleQueryError('INSERT INTO events …', ['secret'], sqlState('57P01')))!;
    expect(error.status).toBe(503);
    expect(error.code).toBe('unavailable');
    expect(Number(error.headers['Retry-After'])).toBeGreaterThan(0);
    expect(error.message).not.toMatch(/INSERT|secret|57P01/);
  });
});
