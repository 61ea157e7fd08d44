import { join, resolve } from 'node:path';
import { migrationsFolder } from '@vigil/drizzle';
import * as schema from '@vigil/drizzle/schema';
import type { Env } from '../config/env.js';
import type { DatabaseHandle, Db } from './handle.js';
import { lockDataDir } from './lock.js';
import { oneAtATime } from './one-at-a-time.js';
import { reportingPool } from './reporting-pool.js';

// Any constant works; it only has to be the same in every Vigil process sharing a PostgreSQL database.
const MIGRATION_LOCK_KEY = 0x76_69_67_69; // "vigi"

export interface OpenOptions {
  /** Apply pending migrations before returning. */
  migrate: boolean;
  /** Who holds the embedded database, for the message another process sees. */
  purpose: string;
}

export async function openDatabase(env: Env, options: OpenOptions): Promise<DatabaseHandle> {
  return env.DATABASE_URL ? openPostgres(env, env.DATABASE_URL, options) : openPglite(env, options);
}

async function openPostgres(env: Env, url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max: env.VIGIL_DB_POOL_SIZE });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Db;
  const reporting = reportingPool(pg, { connectionString: url, max: env.VIGIL_DB_REPORTING_POOL_SIZE, statement_timeout: env.VIGIL_REPORTING_STATEMENT_TIMEOUT_MS });
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
  return {
    driver: 'postgres',
    db,
    reporting: drizzle(reporting, { schema }) as unknown as Db,
    maxConcurrency: Math.max(1, Math.min(env.VIGIL_COMMIT_CONCURRENCY, env.VIGIL_DB_POOL_SIZE - 1)),
    async listen(channel, onMessage, onLost) {
      const client = new pg.Client({ connectionString: url });
      client.on('notification', (msg) => msg.channel === channel && onMessage(msg.payload ?? ''));
      client.on('error', (e) => onLost(e));
      client.on('end', () => onLost(new Error('notification connection ended')));
      await client.connect();
      await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      return async () => {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
      };
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await Promise.all([pool.end(), reporting.end()]);
    },
  };
}

async function openPglite(env: Env, options: OpenOptions): Promise<DatabaseHandle> {
  const dataDir = resolve(env.VIGIL_DATA_DIR);
  const release = lockDataDir(dataDir, options.purpose);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const client = await PGlite.create(join(dataDir, 'pgdata'));
    const db = drizzle(client, { schema }) as unknown as Db;
    if (options.migrate) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    }
    return {
      driver: 'pglite',
      db,
      // Statements on the one connection run in arrival order: one reporting statement in the queue at a time lets
      // group commits in between, where a burst of reporting statements would all run before the next commit.
      reporting: drizzle({ client: oneAtATime(client), schema }) as unknown as Db,
      maxConcurrency: 1,
      async listen(channel, onMessage) {
        return client.listen(channel, onMessage);
      },
      async ping() {
        await client.query('SELECT 1');
      },
      async close() {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}
