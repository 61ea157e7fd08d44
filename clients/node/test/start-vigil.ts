import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort } from '@vigil/test-kit';

export { freePort };

/** The real Vigil server CLI, built by `pnpm build` at the repository root. */
export const SERVER_CLI = fileURLToPath(new URL('../../../server/dist/cli.js', import.meta.url));

export interface RunningVigil {
  /** Base address, e.g. http://127.0.0.1:41234 */
  url: string;
  writeKey: string;
  /** Server output so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartVigilOptions {
  /** Extra environment for `serve`, e.g. VIGIL_RATE_LIMIT_RPS. */
  env?: Record<string, string>;
}

/**
 * Starts a real Vigil server on a fresh database: `serve` runs on a free port until GET /healthz answers 200, and
 * its first start's write key is the tests' key.
 * The database is a new one on the PostgreSQL server of VIGIL_TEST_DATABASE_URL when the test command started
 * one (`make test` does), else an embedded one: these tests are about the client, and a PostgreSQL-backed server
 * starts for a fraction of the CPU of an embedded one (no WebAssembly PostgreSQL per `keys create` and `serve`).
 */
export async function startVigil(options: StartVigilOptions = {}): Promise<RunningVigil> {
  if (!existsSync(SERVER_CLI)) {
    throw new Error(`Vigil server is not built (${SERVER_CLI} missing): run \`pnpm install && pnpm build\` at the repository root`);
  }
  // A copy of the migrated template from the shared test kit.
  const database = await createTestDatabase(process.env.VIGIL_TEST_DATABASE_URL ? 'postgres' : 'pglite');
  // This test's database, whatever DATABASE_URL the developer's shell has.
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: undefined, ...database.env };
  if (baseEnv.DATABASE_URL === undefined) delete baseEnv.DATABASE_URL;

  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_CLI, 'serve'], {
    env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async (): Promise<void> => {
    await terminate(child);
    await database.drop();
  };
  let writeKey: string;
  try {
    await waitForHealth(url, child, () => output);
    // The key is printed before the server listens; its pipe may still be on the way.
    for (let i = 0; i < 50 && firstStartWriteKey(output) === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const key = firstStartWriteKey(output);
    if (key === undefined) throw new Error(`vigil serve printed no first-start write key:\n${output}`);
    writeKey = key;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, writeKey, output: () => output, stop };
}

/**
 * The write key `serve` prints on a fresh database's first start (the line after " Write key"), as an operator
 * reads it: no separate `vigil keys create` process (a second server start's worth of CPU) before each server.
 */
function firstStartWriteKey(output: string): string | undefined {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.startsWith(' Write key'));
  const key = at < 0 ? undefined : lines[at + 1]?.trim();
  return key?.startsWith('vigil_wk_') ? key : undefined;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`vigil serve exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vigil serve did not become healthy within 90 s:\n${output()}`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
