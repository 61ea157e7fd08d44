import type { DatabaseError, Pool, PoolClient, PoolConfig } from 'pg';
import { causeWhere } from '../errors.js';

/**
 * SQLSTATEs after which a session is not worth keeping. Some end it: a connection exception (08), an authorization or
 * database name refused while connecting (28, 3D), an operator's or the server's shutdown (57P), too many connections
 * (53300), a transaction's or an idle transaction's timeout (25P03, 25P04). Some leave state that would fail every
 * later statement the same way, which a new connection does not have: an aborted transaction block (25P02), a
 * prepared statement the client and the server disagree about (26000, 42P05), a cached plan whose result type a
 * migration changed (0A000, "cached plan must not change result type"; the class is otherwise rare enough to treat
 * alike). And an internal error or corruption (XX) may have left anything.
 */
const SESSION_ENDING = /^(08|28|3D|57P|XX|0A)|^53300$|^25P0[234]$|^26000$|^42P05$/;

/**
 * Whether a statement's failure left its connection fit for the next statement: PostgreSQL refused that one
 * statement with an ERROR and went on (outside a transaction, the next statement starts afresh). A FATAL or PANIC
 * error, or a code in SESSION_ENDING, means the session is over or suspect. Anything else (a broken socket, a
 * client-side timeout whose statement may still run) has no answer from the server to go by, so the connection goes.
 */
export function sessionSurvives(error: unknown, pg: { DatabaseError: typeof DatabaseError }): boolean {
  // The server's answer may sit behind an error that translated it (the reporting pool's).
  const refused = causeWhere(error, (e): e is DatabaseError => e instanceof pg.DatabaseError);
  if (!refused) return false;
  // The severity is PostgreSQL's localized word; under a non-English lc_messages the codes alone decide.
  if (refused.severity === 'FATAL' || refused.severity === 'PANIC') return false;
  return typeof refused.code === 'string' && !SESSION_ENDING.test(refused.code);
}

/** Connections a pool has opened since it was made, and what it holds now: how much it churns. */
export interface PoolStats {
  /** Connections opened since start. A number that keeps growing under a steady load is churn. */
  readonly opened: number;
  readonly total: number;
  readonly idle: number;
  /** Callers waiting for a connection: the pool is too small for the load, or its statements too slow. */
  readonly waiting: number;
}

type PgModule = { Pool: typeof Pool; DatabaseError: typeof DatabaseError };

/**
 * A pg Pool whose `query()` keeps a connection that a refused statement left fit for use. pg-pool's own `query()`
 * discards the connection on any failure, so each expected refusal cost a new backend: a fork, authentication, and
 * every prepared statement parsed and planned again (the group commit's write statement takes milliseconds to
 * plan, five times per connection before PostgreSQL settles on a generic plan). A group commit whose cached facts
 * were stale is undone by an error on purpose (see pipeline/fact-cache.ts): 22 of them closed 22 of a pool's
 * connections while a cache warmed up under load. A reporting read cancelled by its statement_timeout, or a
 * unique violation, did the same. Only the promise form is changed, the one drizzle and Vigil use; checked-out
 * clients (transactions) were never affected, since whoever releases them says whether they are broken.
 */
export function sessionKeepingPool(pg: PgModule, config: PoolConfig): Pool & { readonly stats: PoolStats } {
  class SessionKeepingPool extends pg.Pool {
    opened = 0;

    constructor() {
      super(config);
      this.on('connect', () => this.opened++);
    }

    get stats(): PoolStats {
      return { opened: this.opened, total: this.totalCount, idle: this.idleCount, waiting: this.waitingCount };
    }

    // pg's overloads of query() are re-exposed whole, hence `any`.
    override query(...args: any[]): any {
      const [config, values, callback] = args;
      const withCallback = typeof config === 'function' || typeof values === 'function' || typeof callback === 'function';
      if (withCallback || typeof config?.submit === 'function') return (super.query as (...a: unknown[]) => unknown)(...args);
      return this.keeping(config, values);
    }

    private async keeping(config: unknown, values: unknown): Promise<unknown> {
      // pg-pool's own connect(): a wrapper on the instance (the reporting pool's) translates what it hands out.
      const client: PoolClient = await super.connect();
      let discard: Error | undefined;
      try {
        return await (client.query as (c: unknown, v: unknown) => Promise<unknown>)(config, values);
      } catch (error) {
        if (!sessionSurvives(error, pg)) discard = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.release(discard);
      }
    }
  }
  return new SessionKeepingPool();
}
