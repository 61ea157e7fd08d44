import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@vigil/test-kit';
import pg from 'pg';
import { parentOf } from './cpu.js';

const CLI = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const FLOOR = fileURLToPath(new URL('./floor-server.js', import.meta.url));

export interface Target {
  name: string;
  url: string;
  key: string;
  /** The server's process, for CPU accounting. */
  pid?: number;
  stop(): Promise<void>;
}

export { freePort };

export async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not start`);
}

function stopper(child: ChildProcess, cleanup: () => Promise<void> = async () => {}) {
  return () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => void cleanup().then(resolve));
      child.kill('SIGTERM');
    });
}

/** A new, empty database on the server of VIGIL_TEST_DATABASE_URL, and how to drop it. */
export async function throwawayDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.VIGIL_TEST_DATABASE_URL!;
  const name = `${prefix}_${process.pid}`;
  const run = async (statements: string[]) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    for (const statement of statements) await c.query(statement);
    await c.end();
  };
  await run([`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`]);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run([`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]) };
}

/** `work` on a connection of its own to `url` (by default the server of VIGIL_TEST_DATABASE_URL), closed after. */
export async function withClient<T>(work: (c: pg.Client) => Promise<T>, url = process.env.VIGIL_TEST_DATABASE_URL!): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** The postmaster of the server of VIGIL_TEST_DATABASE_URL (the parent of any backend), to tell its processes from other servers'. */
export async function postmasterPid(): Promise<number | undefined> {
  return withClient(async (c) => {
    const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return parentOf(rows[0]!.pid);
  });
}

async function startBaseline(name: string, script: string, env: Record<string, string> = {}, cleanup?: () => Promise<void>): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return { name, url, key: 'none', pid: child.pid, stop: stopper(child, cleanup) };
}

export function startBare(): Promise<Target> {
  return startBaseline('bare fastify', BARE);
}

/** The bare route that also commits each body to PostgreSQL before answering (floor-server.ts). */
export async function startFloor(): Promise<Target> {
  const database = await throwawayDatabase('vigil_floor');
  return startBaseline('durable floor pg', FLOOR, { DATABASE_URL: database.url }, database.drop);
}

/** Vigil as users run it: the built CLI, its own process, rate limiting off so the benchmark measures the path. */
export async function startVigil(driver: 'pglite' | 'postgres'): Promise<Target> {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (driver === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
    env = { VIGIL_DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const database = await throwawayDatabase('vigil_bench');
    // Vigil's defaults for pool size and commits in flight: the benchmark measures what users run.
    env = { DATABASE_URL: database.url };
    cleanup = database.drop;
  }
  return serveVigil(`vigil ${driver}`, env, createWriteKey(env).key, cleanup);
}

/** Vigil's environment in a benchmark: rate limiting off so it measures the path, quiet logs. */
const benchEnv = (env: Record<string, string>) => ({ ...process.env, ...env, VIGIL_RATE_LIMIT_RPS: '0', VIGIL_LOG_LEVEL: 'warn' });

/** A write key made with the CLI, as an operator would: its id (the events' `key_id`) and the key itself. */
export function createWriteKey(env: Record<string, string>): { id: string; key: string } {
  const created = spawnSync(process.execPath, [CLI, 'keys', 'create', '--kind', 'write', '--name', 'bench', '--json'], {
    env: benchEnv(env),
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  return JSON.parse(created.stdout) as { id: string; key: string };
}

/** One `vigil serve` process on `env`'s database, answering once healthy. */
export async function serveVigil(name: string, env: Record<string, string>, key: string, cleanup?: () => Promise<void>): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...benchEnv(env), PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return { name, url, key, pid: child.pid, stop: stopper(child, cleanup) };
}
