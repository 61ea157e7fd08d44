import type { Pool, PoolConfig } from 'pg';
import { VigilError } from '../errors.js';

/** PostgreSQL's code for a cancelled statement; with `statement_timeout` in the message, ours timed out. */
const QUERY_CANCELED = '57014';

export function statementTimedOut(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === QUERY_CANCELED && typeof e.message === 'string' && e.message.includes('statement timeout');
}

/**
 * The pool GraphQL and /api reads use: its own connections (so reads never wait for ingestion's, nor hold them),
 * each with `statement_timeout`. A statement cancelled by the timeout fails as `query_too_expensive` saying so.
 */
export function reportingPool(pg: { Pool: new (config: PoolConfig) => Pool }, config: PoolConfig & { statement_timeout: number }): Pool {
  const pool = new pg.Pool({ application_name: 'vigil-reporting', ...config });
  pool.on('error', () => {});
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const limit = config.statement_timeout.toLocaleString('en');
  pool.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if (!statementTimedOut(error)) throw error;
      throw new VigilError(
        'query_too_expensive',
        `A read ran longer than ${limit} ms (VIGIL_REPORTING_STATEMENT_TIMEOUT_MS) and was cancelled; ask for less or narrow the filters`,
      );
    });
  }) as Pool['query'];
  return pool;
}
