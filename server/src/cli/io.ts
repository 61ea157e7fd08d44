import type { ParsedArgs } from './args.js';

/**
 * What a command reads and writes in place of the process's own. The bin entry passes the process's; a test runs
 * a command inside its own process with an environment and captured streams of its own, which spares it the
 * second of CPU (Node's start, the modules, PGlite's WebAssembly) a fresh process costs per command.
 */
export interface CliIo {
  /** The environment the configuration is read from (loadConfig). */
  env: NodeJS.ProcessEnv;
  stdin: AsyncIterable<Buffer | string>;
  /** Results only, so `--json` output can be piped. */
  stdout: NodeJS.WritableStream;
  /** Progress and errors. */
  stderr: NodeJS.WritableStream;
}

/** A command resolves to nothing (done, 0) or its exit status; the failures it expects are thrown (see run.ts). */
export type Command = (args: ParsedArgs, io: CliIo) => Promise<void> | Promise<number>;

export function processIo(): CliIo {
  return { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

/** A line writer on one of the io's streams. */
export const lines =
  (stream: NodeJS.WritableStream) =>
  (text: string): void =>
    void stream.write(`${text}\n`);
