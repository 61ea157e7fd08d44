import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { flushTree } from './flush.js';
import { PGLITE_THREAD_SOURCE } from './pglite-thread-script.js';

/** What PgliteGuard uses of a PGlite instance: PGlite itself, or PGlite on its own thread. */
export interface PgliteConnection {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Array<Results>>;
  /** A named prepared statement: parsed once per connection, then bound and executed (see preparedRows). PGlite
   * itself has none (its query() parses every time): the guard then runs the text as a query. */
  prepared?<T>(name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The database thread stopped (crashed, or was ended) while work was asked of it. A class 08 code, so the error
 * mapping answers it as a lost connection (503); PgliteGuard then starts a new thread on the next probe.
 */
export class PgliteThreadLost extends Error {
  override name = 'PgliteThreadLost';
  readonly code = '08006';
}

/** A graceful close that has not finished in this time (a thread spinning in PGlite) ends the thread anyway. */
const CLOSE_GRACE_MS = 10_000;

const require = createRequire(import.meta.url);
const pgliteEntry = require.resolve('@electric-sql/pglite');
const nodefsEntry = require.resolve('@electric-sql/pglite/nodefs');

/** A compiled WebAssembly module (the server's TypeScript libs declare no WebAssembly values). */
type WasmModule = object;
const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;

let compiled: Promise<{ pglite: WasmModule; initdb: WasmModule }> | undefined;

/**
 * PGlite's WebAssembly, compiled once per process and shared by every thread (a compiled module crosses threads
 * without being compiled again): a test run opens many databases, and compiling 9 MB of WebAssembly is most of
 * the cost of opening one.
 */
function modules(): Promise<{ pglite: WasmModule; initdb: WasmModule }> {
  compiled ??= (async () => {
    const dist = dirname(pgliteEntry);
    const [pglite, initdb] = await Promise.all(['pglite.wasm', 'initdb.wasm'].map(async (file) => compile(await readFile(join(dist, file)))));
    return { pglite: pglite!, initdb: initdb! };
  })();
  compiled.catch(() => (compiled = undefined));
  return compiled;
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void; since: number };

/**
 * Flushes to the disk, counted by the database's threads in memory shared with this one: read without a message,
 * and kept across the threads that one database opens one after another (PgliteGuard's reopen).
 */
export class FlushCounter implements FlushCounts {
  /**
   * 64-bit slots: a 32-bit count of fsyncs, one per commit, would pass 2^31 within weeks at a few hundred commits a
   * second and turn negative in /metrics.
   */
  readonly shared = new SharedArrayBuffer(FLUSH_SLOTS * 8);
  private readonly view = new BigInt64Array(this.shared);

  /** PostgreSQL's fsync() calls. */
  get fsyncs(): number {
    return Number(Atomics.load(this.view, 0));
  }

  /** Data files flushed in the background, a second's writes at a time (see pglite-thread-script.ts). */
  get background(): number {
    return Number(Atomics.load(this.view, 1));
  }

  /** Background flushes that failed (or a flusher that hung a minute): PostgreSQL's next flush of any file then fails, a PANIC. */
  get failed(): number {
    return Number(Atomics.load(this.view, 2));
  }

  /** Seconds PostgreSQL's fsync() calls of its WAL took, in all. */
  get walFlushSeconds(): number {
    return Number(Atomics.load(this.view, 3)) / 1e9;
  }

  /** Flushes of the WAL that took 10 ms or more: each held the database's one thread, and every commit queued. */
  get slowWalFlushes(): number {
    return Number(Atomics.load(this.view, 4));
  }

  /** The longest flush of the WAL since the last call of this, in seconds (0 with none). */
  takeLongestWalFlush(): number {
    return Number(Atomics.exchange(this.view, 5, 0n)) / 1e9;
  }
}

/** FlushCounter's slots: fsyncs, background flushes, failed ones, then of the WAL's fsyncs: ns in all, those ≥ 10 ms, the longest's ns. */
const FLUSH_SLOTS = 6;

/** What an embedded database's flushes have been since it opened (a FlushCounter, for /metrics). */
export interface FlushCounts {
  readonly fsyncs: number;
  readonly background: number;
  readonly failed: number;
  readonly walFlushSeconds: number;
  readonly slowWalFlushes: number;
  takeLongestWalFlush(): number;
}

/**
 * Hears of one garbage collection of the embedded database's thread: its kind as Node names it (`minor`, `major`,
 * `incremental`, `weakcb`) and how long it held the thread.
 */
export type ThreadGcObserver = (kind: string, seconds: number) => void;

export interface PgliteThreadLimits {
  /**
   * A call unanswered for this long means PGlite is spinning for good (see pglite-guard.ts): the thread is ended,
   * as the watchdog ends a process whose event loop is held. 0: never. Read at each check, so it can be set once
   * the migrations (whose statements may legitimately run long) are done.
   */
  stuckAfterMs: number;
}

/** An error from the thread, as an Error of this thread with the fields it carried (`code`, `detail`, …). */
function revived(fields: Record<string, unknown>): Error {
  const { message, name, ...rest } = fields;
  const error = Object.assign(new Error(String(message)), rest);
  if (typeof name === 'string') error.name = name;
  return error;
}

/**
 * PGlite on a worker thread of its own. PGlite runs PostgreSQL in WebAssembly on the thread that calls it, so on the
 * main thread every statement holds the event loop: no request is parsed or answered while a group commit runs.
 * Here the main thread only posts statements and receives results; PostgreSQL's work runs beside it.
 *
 * Calls are answered in the order they were posted (PGlite runs one at a time). Transactions are BEGIN … COMMIT
 * sent by the caller (PgliteGuard, which holds the connection for the whole transaction). A thread that dies fails
 * every call then and after with PgliteThreadLost; `close()` ends the thread.
 */
export class PgliteThread implements PgliteConnection {
  private readonly pending = new Map<number, Pending>();
  private readonly subscriptions = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private lost: PgliteThreadLost | undefined;
  private closing = false;
  private stuck: string | undefined;
  private readonly watch: NodeJS.Timeout;
  /** Files and directories flushed after PGlite made a new data directory (0: it existed, or no `sync`). */
  created = 0;

  private constructor(
    private readonly worker: Worker,
    limits: PgliteThreadLimits,
    onGc?: ThreadGcObserver,
  ) {
    type Message = { id?: number; value?: unknown; error?: Record<string, unknown>; notify?: number; payload?: string; gc?: [string, number][] };
    worker.on('message', (message: Message) => {
      if (message.notify !== undefined) return void this.subscriptions.get(message.notify)?.(message.payload ?? '');
      if (message.gc) {
        for (const [kind, seconds] of message.gc) onGc?.(kind, seconds);
        return;
      }
      const call = this.pending.get(message.id!);
      if (!call) return;
      this.pending.delete(message.id!);
      this.idle();
      if (message.error) call.reject(revived(message.error));
      else call.resolve(message.value);
    });
    let cause: Error | undefined;
    worker.on('error', (error) => (cause = error));
    worker.on('exit', (code) => {
      clearInterval(this.watch);
      this.lost ??= new PgliteThreadLost(
        this.closing
          ? 'The embedded database is closed'
          : (this.stuck ?? `The embedded database thread stopped (exit code ${code}${cause ? `: ${cause.message}` : ''})`),
        { cause },
      );
      for (const call of this.pending.values()) call.reject(this.lost);
      this.pending.clear();
    });
    this.watch = setInterval(() => {
      // Calls are answered in order: the oldest pending one is the one running.
      const oldest = this.pending.values().next().value;
      if (!oldest || limits.stuckAfterMs <= 0 || Date.now() - oldest.since < limits.stuckAfterMs) return;
      this.stuck = `The embedded database did not answer within ${limits.stuckAfterMs / 1000} s; its thread was ended`;
      void worker.terminate();
    }, 1000);
    this.watch.unref();
    this.idle();
  }

  /**
   * Starts a thread and opens PGlite on `dataDir` in it; a failure to open arrives with its `code` (EACCES…). `sync`:
   * every commit is flushed to the disk before it is answered (VIGIL_DATA_DIR_SYNC; see pglite-thread-script.ts).
   * `onGc` hears of each of the thread's garbage collections.
   */
  static async open(dataDir: string, limits: PgliteThreadLimits, sync: boolean, flushed = new FlushCounter(), onGc?: ThreadGcObserver): Promise<PgliteThread> {
    const entries = { pglite: pathToFileURL(pgliteEntry).href, nodefs: pathToFileURL(nodefsEntry).href, flushed: flushed.shared };
    const worker = new Worker(PGLITE_THREAD_SOURCE, { eval: true, workerData: entries });
    const thread = new PgliteThread(worker, limits, onGc);
    const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
    try {
      await thread.call('open', { dataDir, modules: await modules(), sync });
      // PGlite makes a new database in memory and copies its files out unflushed, then starts PostgreSQL on them as
      // cleanly shut down, so PostgreSQL would never flush them: they go to the disk here, once.
      if (fresh && sync) thread.created = flushTree(dataDir);
      return thread;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.call('query', { text, params, options: portable(options) }) as Promise<Results<T>>;
  }

  exec(text: string, options?: QueryOptions): Promise<Array<Results>> {
    return this.call('exec', { text, options: portable(options) }) as Promise<Array<Results>>;
  }

  prepared<T>(name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.call('prepared', { name, text, params, options: portable(options) }) as Promise<Results<T>>;
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription = this.nextId++;
    this.subscriptions.set(subscription, onMessage);
    try {
      await this.call('listen', { channel, subscription });
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw error;
    }
    return async () => {
      this.subscriptions.delete(subscription);
      await this.call('unlisten', { subscription });
    };
  }

  /** Closes PGlite (it writes what it holds), then ends the thread; ends it anyway when PGlite does not answer. */
  async close(): Promise<void> {
    if (this.lost) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([this.call('close', {}), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    } finally {
      clearTimeout(timer);
      this.closing = true;
      this.lost = new PgliteThreadLost('The embedded database is closed');
      // PGlite has closed (or given up): the thread's teardown, freeing its memory, need not delay the caller.
      this.worker.unref();
      void this.worker.terminate();
    }
  }

  /** Ends the thread at once, as a crash would: every pending and later call fails with PgliteThreadLost. */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private call(op: string, message: Record<string, unknown>): Promise<unknown> {
    if (this.lost) return Promise.reject(this.lost);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, since: Date.now() });
      this.worker.ref();
      this.worker.postMessage({ id, op, ...message });
    });
  }

  /** An idle thread does not keep the process alive (as PGlite on the main thread did not); a pending call does. */
  private idle(): void {
    if (this.pending.size === 0) this.worker.unref();
  }
}

/**
 * Query options that can cross to the thread. drizzle passes parsers that keep dates and intervals as PostgreSQL's
 * text (identity functions); functions cannot be posted, so the types they cover are sent and kept as text there.
 */
function portable(options: QueryOptions | undefined): { rowMode?: string; rawTypes?: number[] } | undefined {
  if (!options) return undefined;
  if (options.serializers || options.blob) throw new TypeError('PGlite on its thread takes no serializers or blob');
  const parsers = Object.entries(options.parsers ?? {});
  for (const [type, parse] of parsers) {
    if (parse('0', Number(type)) !== '0') throw new TypeError(`The parser of type ${type} is not the identity: it cannot run on PGlite's thread`);
  }
  return { rowMode: options.rowMode, rawTypes: parsers.map(([type]) => Number(type)) };
}
