import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { BackupError, type Progress } from './errors.js';
import { writeInPlace } from './in-place.js';
import { mb } from './format.js';
import { findPgTool } from './pg-tools.js';
import { listTables } from './tables.js';

export interface PostgresTarget {
  /** DATABASE_URL. */
  url: string;
  /** VIGIL_PG_BIN_DIR. */
  binDir?: string;
  /** The command's environment: PATH for the client programs, libpq's PG* variables. */
  env: NodeJS.ProcessEnv;
  progress: Progress;
}

/**
 * One plain connection for the checks around pg_dump and pg_restore: not Vigil's pools, whose extra connections
 * (health probes) would count as other sessions on the database being restored.
 */
async function withConnection<T>(url: string, work: (db: Queryable) => Promise<T>): Promise<T> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const client = new pg.Client({ connectionString: url, application_name: 'vigil backup' });
  await client.connect();
  try {
    return await work(drizzle(client) as unknown as Queryable);
  } finally {
    await client.end();
  }
}

async function serverMajor(db: Queryable): Promise<number> {
  const [row] = await rows<{ v: string }>(db, sql`SELECT current_setting('server_version_num') AS v`);
  return Math.floor(Number(row!.v) / 10000);
}

/**
 * libpq's environment for the URL, the password kept out of the command line (where `ps` shows it to every user
 * of the machine). Everything else, TLS options included, stays in the URL.
 */
function connection(url: string, base: NodeJS.ProcessEnv): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...base, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client program, each line of its --verbose output handed to `progress`; fails with its last lines. */
function run(path: string, args: string[], env: NodeJS.ProcessEnv, progress: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const tail: string[] = [];
    let pending = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line) continue;
        progress(line);
        tail.push(line);
        if (tail.length > 5) tail.shift();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (pending) tail.push(pending);
      if (code === 0) resolve();
      else reject(new BackupError(`${path} failed (exit ${code}): ${tail.join(' | ')}`));
    });
  });
}

/**
 * A consistent snapshot of the whole database (every schema, partitions and drizzle's migration record included)
 * in pg_dump's custom format. Safe while Vigil serves: pg_dump reads one snapshot and takes only share locks.
 */
export async function backupPostgres(target: PostgresTarget, file: string): Promise<void> {
  const tool = findPgTool('pg_dump', await withConnection(target.url, serverMajor), target.binDir, target.env);
  const { dbname, env } = connection(target.url, target.env);
  target.progress(`pg_dump ${tool.major} (${tool.path}) → ${file}`);
  // pg_dump flushes its output itself; writeInPlace keeps an interrupted dump from standing at the backup's name.
  await writeInPlace(file, (partial) =>
    run(tool.path, ['--format=custom', '--verbose', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${dbname}`], env, target.progress),
  );
  target.progress(`backup written: ${file} (${mb(statSync(file).size)})`);
}

/**
 * Restores a custom-format archive into the database of `target`. A database that already has tables is refused
 * unless `force`, which first drops Vigil's schemas (everything in them); either way, other sessions on it (a
 * running Vigil) are refused, since they would write into a half-restored database.
 */
export async function restorePostgres(target: PostgresTarget, file: string, force: boolean): Promise<void> {
  const tool = await withConnection(target.url, (db) => prepareTarget(db, target, force));
  const { dbname, env } = connection(target.url, target.env);
  target.progress(`pg_restore ${tool.major} (${tool.path}) ← ${file} (${mb(statSync(file).size)})`);
  await run(tool.path, ['--verbose', '--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${dbname}`, file], env, target.progress);
}

/** The checks before a restore (no other session, empty unless forced), the schemas dropped when forced. */
async function prepareTarget(db: Queryable, target: PostgresTarget, force: boolean) {
  const [others] = await rows<{ n: number; apps: string | null }>(
    db,
    sql`SELECT count(*)::int AS n, string_agg(DISTINCT nullif(application_name, ''), ', ') AS apps
        FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  if (others!.n > 0) {
    throw new BackupError(
      `${others!.n} other session(s) are connected to the target database${others!.apps ? ` (${others!.apps})` : ''}: ` +
        'stop every Vigil process using it before restoring, then start them again afterwards.',
    );
  }
  const tables = await listTables(db);
  if (tables.length > 0 && !force) {
    throw new BackupError(
      `The target database is not empty (${tables.length} tables): restore into a new, empty database, ` + 'or pass --force to replace everything in it.',
    );
  }
  const tool = findPgTool('pg_restore', await serverMajor(db), target.binDir, target.env);
  if (tables.length > 0) {
    target.progress('--force: dropping the schemas public and drizzle of the target');
    await db.execute(sql`DROP SCHEMA IF EXISTS drizzle CASCADE`);
    await db.execute(sql`DROP SCHEMA IF EXISTS public CASCADE`);
    await db.execute(sql`CREATE SCHEMA public`);
  }
  return tool;
}
