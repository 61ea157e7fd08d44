import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { freePort } from '@vigil/test-kit';
import { runCommand } from '../cli/run.js';
import { TEST_NODE_FLAGS } from './node-flags.js';

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

/** What every command and server a test runs sees: this process's environment, quieter logs, then the test's own. */
const commandEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, VIGIL_LOG_LEVEL: 'warn', ...env });

/**
 * Runs a command in this process, as the bin entry runs it in its own (cli/main.ts is `runCommand` given the process's
 * streams, plus its exit): the command's parsing, configuration, work, output and exit status are what users run,
 * without the second of CPU a fresh Node process costs per command. Tests of the process itself (the bin's exit, a
 * second process on a data directory, `serve`) use spawnCli.
 */
export async function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const code = await runCommand(args, {
    env: commandEnv(env),
    stdin: Readable.from(input === undefined ? [] : [Buffer.from(input)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function collector(): { stream: Writable; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** Runs the built CLI as a process of its own, as users do. */
export function spawnCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_FLAGS, CLI, ...args], { env: commandEnv(env) });
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

/** The address `vigil serve` prints once it listens ("Vigil server: http://127.0.0.1:PORT  (database: …)"). */
const SERVING = /^Vigil server: (http:\/\/\S+)/m;

/**
 * Starts `vigil serve` as a real child process and waits until /healthz answers. The child binds a port of the
 * OS's choosing (PORT=0) and says which in the line it prints once it listens, as it does for operators: a port
 * found free beforehand could be taken by a server of a suite running beside this one before the child binds it,
 * and the test would then talk to that server instead.
 */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...TEST_NODE_FLAGS, CLI, 'serve'], {
    env: { ...commandEnv({ HOST: '127.0.0.1', ...env }), PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vigil serve exited ${child.exitCode}: ${err}`);
    url ??= SERVING.exec(out)?.[1];
    try {
      if (url !== undefined && (await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // Not answering yet.
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
