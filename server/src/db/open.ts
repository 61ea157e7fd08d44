import { join, resolve } from 'node:path';
import { migrationsFolder } from '@vigil/drizzle';
import * as schema from '@vigil/drizzle/schema';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { DatabaseHealth } from './health.js';
import type { DatabaseHandle, Db } from './handle.js';
import { DataDirError, lockDataDir } from './lock.js';
import { oneAtATime } from './one-at-a-time.js';
import { PgliteCheckpointer } from './pglite-checkpointer.js';
import { PgliteGuard } from './pglite-guard.js';
import { FlushCounter, PgliteThread, type ThreadGcObserver } from './pglite-thread.js';
import { listenWithReconnect } from './pg-listener.js';
import { ReplicaMonitor } from './replica.js';
import { reportingPool } from './reporting-pool.js';
import { sessionKeepingPool } from './session-pool.js';

/**
 * Group commits in flight on PGlite. Its one connection runs one statement at a time, but two commits still overlap:
 * one's statements run on PGlite's thread while the main thread evaluates the other's batch and answers its
 * requests. A third finds both busy (measured: 1 → 2 in flight gave 23% more events/s; 3 gave no more than 2). With
 * the second waiting VIGIL_COMMIT_OVERLAP_MS, batches grow: the same events/s as two started at once, and 15-20 %
 * less CPU per event at 1,000 events/s.
 */
export const PGLITE_COMMIT_CONCURRENCY = 2;

/** How often the embedded database's WAL is measured for a checkpoint: a statement of well under a millisecond. */
const CHECKPOINTER_EVERY_MS = 1_000;

// Any constant works; it only has to be the same in every Vigil process sharing a PostgreSQL database.
const MIGRATION_LOCK_KEY = 0x76_69_67_69; // "vigi"

/**
 * A connection that cannot be made in this time fails (503) instead of holding its request while the server is
 * unreachable; TCP keepalive finds a peer that vanished without closing (a failover that moved the address).
 */
const PG_CONNECTION = { connectionTimeoutMillis: 5000, keepAlive: true } as const;

export interface OpenOptions {
  /** Apply pending migrations before returning. */
  migrate: boolean;
  /** Who holds the embedded database, for the message another process sees. */
  purpose: string;
  /** How often the embedded database's WAL is measured for a checkpoint (pglite-checkpointer.ts); every second by default. */
  checkpointEveryMs?: number;
}

/**
 * The settings opening a database reads (validated in config/env.ts); a structural type so db/ does not depend
 * on config/, and any Env passes as it is.
 */
export interface DatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATABASE_REPLICA_URL?: string | undefined;
  VIGIL_REPLICA_MAX_LAG_SECONDS: number;
  VIGIL_DATA_DIR: string;
  VIGIL_DATA_DIR_MIN_FREE_MB: number;
  VIGIL_DATA_DIR_SYNC: boolean;
  VIGIL_DB_POOL_SIZE: number;
  VIGIL_DB_REPORTING_POOL_SIZE: number;
  VIGIL_REPORTING_STATEMENT_TIMEOUT_MS: number;
  VIGIL_COMMIT_CONCURRENCY: number;
  VIGIL_COMMIT_OVERLAP_MS: number;
  VIGIL_WATCHDOG_SECONDS?: number;
}

export async function openDatabase(env: DatabaseSettings, options: OpenOptions): Promise<DatabaseHandle> {
  return env.DATABASE_URL ? openPostgres(env, env.DATABASE_URL, options) : openPglite(env, options);
}

/**
 * A pool's client errors go to the database's health instead of ending the process. The pool listens for errors
 * on idle clients only (a server restart); a client checked out between two statements of a transaction gets the
 * server's 57P01 as an 'error' event too, which without a listener would end the process. Its next query fails
 * instead, and the pool discards the broken client on release.
 */
function reportFaults(pool: Pool, health: Pick<DatabaseHealth, 'observe'>): void {
  pool.on('error', (error) => health.observe(error));
  pool.on('connect', (client) => client.on('error', (error) => health.observe(error)));
}

async function openPostgres(env: DatabaseSettings, url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = sessionKeepingPool(pg, { connectionString: url, max: env.VIGIL_DB_POOL_SIZE, application_name: 'vigil', ...PG_CONNECTION });
  // A standby answers SELECT 1 but refuses every write: after a failover that left this address on a standby,
  // readiness must say so (25006, as its writes do).
  const ping = async () => {
    const { rows } = await pool.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    if (rows[0]?.standby) throw Object.assign(new Error('the database is a read-only standby'), { code: '25006' });
  };
  const health = new DatabaseHealth({ ping });
  reportFaults(pool, health);
  const db = drizzle(pool, { schema }) as unknown as Db;
  const replica = env.DATABASE_REPLICA_URL ? replicaMonitor(pool, env.DATABASE_REPLICA_URL, env, pg) : undefined;
  const reporting = reportingPool(
    (config) => sessionKeepingPool(pg, config),
    {
      connectionString: env.DATABASE_REPLICA_URL ?? url,
      max: env.VIGIL_DB_REPORTING_POOL_SIZE,
      statement_timeout: env.VIGIL_REPORTING_STATEMENT_TIMEOUT_MS,
      ...PG_CONNECTION,
    },
    replica?.monitor,
  );
  // A replica's faults are its own: they refuse reports, never mark the primary (and so ingestion) not ready.
  reportFaults(reporting, replica?.monitor ?? health);
  const close = async () => {
    health.stop();
    replica?.monitor.stop();
    await Promise.all([pool.end(), reporting.end(), replica?.probe.end()]);
  };
  try {
    // Reports are refused until the replica has been asked once; a replica that is down does not stop the start.
    await replica?.monitor.check();
    if (options.migrate) {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      const client = await pool.connect();
      try {
        // Several Vigil processes may start together on one database: one migrates, the others wait.
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrate(drizzle(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    }
  } catch (error) {
    // A start that fails (the database away, a migration refused) leaves no pool or timer behind.
    await close().catch(() => {});
    throw error;
  }
  return {
    driver: 'postgres',
    db,
    reporting: drizzle(reporting, { schema }) as unknown as Db,
    maxConcurrency: Math.max(1, Math.min(env.VIGIL_COMMIT_CONCURRENCY, env.VIGIL_DB_POOL_SIZE - 1)),
    commitOverlapMs: env.VIGIL_COMMIT_OVERLAP_MS,
    health,
    replica: replica?.monitor,
    pools: () => ({ ingest: pool.stats, reporting: reporting.stats }),
    listen(channel, onMessage, onLost, onRestored) {
      return listenWithReconnect(() => new pg.Client({ connectionString: url, application_name: 'vigil-listen', ...PG_CONNECTION }), channel, {
        onMessage,
        onLost,
        onRestored,
      });
    },
    ping,
    close,
  };
}

/**
 * The monitor of the reporting replica: the primary's WAL position from the ingestion pool, the replica's from a
 * connection of its own (so a busy reporting pool cannot delay it), once at start and every second after.
 */
function replicaMonitor(primary: Pool, url: string, env: DatabaseSettings, pg: typeof import('pg').default) {
  const probe = sessionKeepingPool(pg, { connectionString: url, max: 1, application_name: 'vigil-replica-monitor', ...PG_CONNECTION });
  const monitor = new ReplicaMonitor({
    primaryPosition: async () => (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn,
    replicaPosition: async () => (await probe.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn')).rows[0]!.lsn,
    maxLagMs: env.VIGIL_REPLICA_MAX_LAG_SECONDS * 1000,
  });
  reportFaults(probe, monitor);
  monitor.start();
  return { monitor, probe };
}

async function openPglite(env: DatabaseSettings, options: OpenOptions): Promise<DatabaseHandle> {
  const dataDir = resolve(env.VIGIL_DATA_DIR);
  const release = lockDataDir(dataDir, options.purpose);
  let opened: PgliteGuard | undefined;
  try {
    const { drizzle } = await import('drizzle-orm/pglite');
    const pgdata = join(dataDir, 'pgdata');
    // On a thread of its own, so PostgreSQL's work does not hold the event loop (see pglite-thread.ts).
    const limits = { stuckAfterMs: 0 };
    const flushed = new FlushCounter();
    // Every thread the guard opens reports to the one observer.
    let observeGc: ThreadGcObserver | undefined;
    const create = () =>
      PgliteThread.open(pgdata, limits, env.VIGIL_DATA_DIR_SYNC, flushed, (kind, seconds) => observeGc?.(kind, seconds)).catch(
        (error: NodeJS.ErrnoException) => {
          throw error.code === 'EROFS' || error.code === 'EACCES' || error.code === 'EPERM'
            ? new DataDirError(`The data directory ${pgdata} is not writable (${error.code}): Vigil must be able to write there`)
            : error;
        },
      );
    const client = new PgliteGuard(await create(), {
      dataDir,
      minFreeBytes: env.VIGIL_DATA_DIR_MIN_FREE_MB * 1024 * 1024,
      reopen: create,
    });
    opened = client;
    // The guard offers what drizzle calls on a PGlite instance: query and transaction.
    const db = drizzle(client as unknown as PGliteInstance, { schema }) as unknown as Db;
    if (options.migrate) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(db as unknown as Parameters<typeof migrate>[0], { migrationsFolder });
    }
    // Past the migrations, a statement that runs this long is PGlite spinning for good: its thread is ended and
    // started again (on the main thread, the watchdog would have ended the process).
    limits.stuckAfterMs = (env.VIGIL_WATCHDOG_SECONDS ?? 0) * 1000;
    const health = new DatabaseHealth({ ping: () => client.probe() });
    // PostgreSQL's checkpointer, which PGlite's single-user PostgreSQL lacks (see pglite-checkpointer.ts).
    const checkpointer = new PgliteCheckpointer(client, { everyMs: options.checkpointEveryMs ?? CHECKPOINTER_EVERY_MS });
    checkpointer.start();
    return {
      driver: 'pglite',
      db,
      // Statements on the one connection run in arrival order: one reporting statement in the queue at a time lets
      // group commits in between, where a burst of reporting statements would all run before the next commit.
      // Through the guard, so a full disk stops reporting reads too.
      reporting: drizzle({ client: oneAtATime(client as unknown as PGliteInstance), schema }) as unknown as Db,
      // Commits in flight share the connection as commits on PostgreSQL share the data: a batch may read before
      // another's write, which the pipeline already answers for (idempotent writes, keys claimed in the write).
      maxConcurrency: Math.min(env.VIGIL_COMMIT_CONCURRENCY, PGLITE_COMMIT_CONCURRENCY),
      commitOverlapMs: env.VIGIL_COMMIT_OVERLAP_MS,
      health,
      listen(channel, onMessage) {
        return client.listen(channel, onMessage);
      },
      ping: () => client.probe(),
      flushes: () => flushed,
      checkpoints: () => ({ ...checkpointer.counts }),
      observeThreadGcs(observe) {
        observeGc = observe;
      },
      async close() {
        health.stop();
        try {
          await checkpointer.stop();
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (e) {
    // PGlite closed before the lock goes: a failed migration must not leave it running on a directory the next
    // holder (in a test, the same process) opens.
    await opened?.close().catch(() => {});
    release();
    throw e;
  }
}
