import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort } from '@vigil/test-kit';

/** Environment of a child process (Next types NODE_ENV as read-only on process.env). */
export type Env = Record<string, string | undefined>;

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const CONSOLE_DIR = resolve(ROOT, 'console');
const CLI = join(ROOT, 'server/dist/cli.js');

export { freePort };

/** Runs the real `vigil` CLI to completion and returns its stdout. */
export function cli(args: string[], env: Env): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done(out) : fail(new Error(`vigil ${args.join(' ')} exited ${code}: ${err || out}`))));
  });
}

export interface Running {
  url: string;
  stop(): Promise<void>;
  output(): string;
}

async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before ${url} answered:\n${output()}`);
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output()}`);
}

function start(command: string, args: string[], options: { cwd: string; env: Env; ready: string; base: string }): Promise<Running> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (c: Buffer) => {
    log = (log + c.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return waitFor(options.ready, child, () => log, 60_000).then(
    () => ({ url: options.base, stop, output: () => log }),
    async (error) => {
      await stop();
      throw error;
    },
  );
}

export interface VigilServer extends Running {
  env: Env;
}

/**
 * A fresh database: on the PostgreSQL server named by VIGIL_TEST_DATABASE_URL (as `make test` provides) a new
 * database of its own, otherwise an embedded one in a temp directory. The CLI prepares it before `serve` runs.
 */
export async function prepareDatabase(): Promise<{ env: Env; kind: 'postgresql' | 'pglite'; cleanup(): Promise<void> }> {
  const env: Env = {
    ...(process.env as Env),
    VIGIL_LOG_LEVEL: 'warn',
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_LOGIN_ATTEMPTS_PER_MINUTE: '1000',
  };
  delete env.DATABASE_URL;
  // The server runs as `make start` runs it: vitest's NODE_ENV=test is not passed on.
  delete env.NODE_ENV;
  if (process.env.VIGIL_E2E_SERVER_NODE_ENV) env.NODE_ENV = process.env.VIGIL_E2E_SERVER_NODE_ENV;

  // A copy of the migrated template (the CLI's migrate then has nothing to do), from the shared test kit.
  const driver = process.env.VIGIL_TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const database = await createTestDatabase(driver);
  Object.assign(env, database.env);
  return { env, kind: driver === 'postgres' ? 'postgresql' : 'pglite', cleanup: () => database.drop() };
}

export async function startVigil(env: Env): Promise<VigilServer> {
  const port = await freePort();
  const full = { ...env, PORT: String(port), HOST: '127.0.0.1' };
  const base = `http://127.0.0.1:${port}`;
  const running = await start(process.execPath, [CLI, 'serve'], { cwd: ROOT, env: full, ready: `${base}/healthz`, base });
  return { ...running, env: full };
}

/** The built console (`next start`), talking to the given Vigil server. */
export async function startConsole(apiUrl: string): Promise<Running> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Env = { ...(process.env as Env), VIGIL_API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
  return start(join(CONSOLE_DIR, 'node_modules/.bin/next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: CONSOLE_DIR,
    env,
    ready: `${base}/login`,
    base,
  });
}
