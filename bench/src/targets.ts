import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const CLI = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));

export interface Target {
  name: string;
  url: string;
  key: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
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

export async function startBare(): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, [BARE], { env: { ...process.env, PORT: String(port) }, stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return { name: 'bare fastify', url, key: 'none', stop: stopper(child) };
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
    const admin = process.env.VIGIL_TEST_DATABASE_URL!;
    const name = `vigil_bench_${process.pid}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    // Vigil's defaults for pool size and commits in flight: the benchmark measures what users run.
    env = { DATABASE_URL: url.toString() };
    cleanup = async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
  const fullEnv = { ...process.env, ...env, VIGIL_RATE_LIMIT_RPS: '0', VIGIL_LOG_LEVEL: 'warn' };
  const created = spawnSync(process.execPath, [CLI, 'keys', 'create', '--kind', 'write', '--name', 'bench', '--json'], { env: fullEnv, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...fullEnv, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return { name: `vigil ${driver}`, url, key, stop: stopper(child, cleanup) };
}
