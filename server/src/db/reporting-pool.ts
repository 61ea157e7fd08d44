import type { Pool, PoolClient, PoolConfig } from 'pg';
import { VigilError } from '../errors.js';
import type { ReplicaMonitor } from './replica.js';

/**
 * PostgreSQL's code for a cancelled statement. On the reporting connections that is almost always our
 * `statement_timeout`; the message that says so is translated under a non-English `lc_messages`, and an operator's
 * `pg_cancel_backend` of a runaway read means the same to the caller, so the code alone decides.
 */
const QUERY_CANCELED = '57014';

const WRAPPED = Symbol('vigil.reporting-client');

export function statementTimedOut(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === QUERY_CANCELED;
}

/**
 * The pool GraphQL and /api reads use: its own connections (so reads never wait for ingestion's, nor hold them),
 * each with `statement_timeout`. A statement cancelled by the timeout fails as `query_too_expensive` saying so.
 * With a `replica` (DATABASE_REPLICA_URL), a read is refused at once while the replica is unreachable or lags,
 * and its failures are the replica's 503, never a fault of the primary.
 * The caller attaches its error listeners (see reportFaults in open.ts), as for the ingestion pool.
 */
export function reportingPool<P extends Pool>(
  newPool: (config: PoolConfig) => P,
  config: PoolConfig & { statement_timeout: number },
  replica?: ReplicaMonitor,
): P {
  const { statement_timeout: timeout, ...connection } = config;
  const pool = newPool({
    application_name: 'vigil-reporting',
    ...connection,
    // Set on each new session rather than sent at connect: PgBouncer refuses a connection whose startup packet
    // carries a parameter it does not track ("unsupported startup parameter: statement_timeout"), so every report
    // failed through it. The pool hands a new client out only once this has succeeded; if it fails, the client is
    // ended and the read that asked for it fails, so no report ever runs without its timeout.
    onConnect: (client) => client.query(`SET statement_timeout = ${Math.trunc(timeout)}`),
  });
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  const limit = timeout.toLocaleString('en');
  const translate = (error: unknown): never => {
    const replicaFailure = replica?.failure(error);
    if (replicaFailure) throw replicaFailure;
    if (!statementTimedOut(error)) throw error;
    throw new VigilError(
      'query_too_expensive',
      `A read ran longer than ${limit} ms (VIGIL_REPORTING_STATEMENT_TIMEOUT_MS) and was cancelled; ask for less or narrow the filters`,
      // The pool reads the cause to tell a cancelled statement (its connection is fine) from a broken session.
      { cause: error },
    );
  };
  const translated = (result: unknown) => (result instanceof Promise ? result.catch(translate) : result);
  // A checked-out client (a transaction, a streamed export) translates its failures too; the pool reuses clients,
  // so each is wrapped once.
  const wrapClient = (client: PoolClient & { [WRAPPED]?: true }) => {
    if (!client[WRAPPED]) {
      const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => translated(clientQuery(...args))) as PoolClient['query'];
      client[WRAPPED] = true;
    }
    return client;
  };
  // Promise-style calls only: pg-pool's own query() calls connect() with a callback, which passes through.
  const guarded =
    (call: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      if (typeof args[args.length - 1] === 'function') return call(...args);
      try {
        replica?.assertUsable();
      } catch (refusal) {
        return Promise.reject(refusal);
      }
      return translated(call(...args));
    };
  pool.query = guarded(query) as Pool['query'];
  pool.connect = ((...args: unknown[]) => {
    const result = guarded(connect)(...args);
    return result instanceof Promise ? result.then(wrapClient) : result;
  }) as Pool['connect'];
  return pool;
}
