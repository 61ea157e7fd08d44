import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '@vigil/test-kit';

export { freePort };

/** The built CLI; CLI tests exercise exactly what users run, so the build must exist. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` before the CLI tests`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/*
 * A command lives about a second, shorter than the optimising compile V8 starts on PGlite's hottest WebAssembly
 * functions: its baseline code (Liftoff) does the same work, and skipping the optimising tier saves ~0.5 s of CPU
 * per command (a third of it). The tier changes how fast, never what, the code computes; `vigil serve` children,
 * which answer many requests, keep V8's defaults.
 */
const COMMAND_NODE_FLAGS = ['--liftoff-only'];

export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...COMMAND_NODE_FLAGS, CLI, ...args], { env: { ...process.env, VIGIL_LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far (the JSON log at VIGIL_LOG_LEVEL). */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `vigil serve` as a real child process and waits until /healthz answers. */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, VIGIL_LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vigil serve exited ${child.exitCode}: ${err}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`vigil serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}
