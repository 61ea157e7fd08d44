import { statfsSync } from 'node:fs';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { DatabaseFault, faultKind, isPanic } from './faults.js';
import { type PgliteConnection, PgliteThreadLost } from './pglite-thread.js';

export interface PgliteGuardOptions {
  /** Where PGlite writes; its file system's free space is checked before each piece of work. */
  dataDir: string;
  /** Below this many free bytes, work is refused (503) before PGlite can run out of space. */
  minFreeBytes: number;
  /** Opens PGlite on the same directory again, to replace an instance that met a full disk or whose thread died. */
  reopen(): Promise<PgliteConnection>;
  /** Free bytes on the file system of `dir` (default: `statfs`); tests count the calls. */
  freeBytes?(dir: string): number;
  /** Milliseconds on a monotonic clock (default `performance.now`); tests drive it. */
  now?(): number;
}

/**
 * Free space is measured again before each piece of work unless it was measured this recently with this much more
 * than the minimum free: no piece of work comes near writing a gigabyte in 100 ms, and a `statfs` before every
 * statement cost about 1 % of the main thread's time at 1,000 events/s. Near the minimum, every piece is checked.
 */
export const SPACE_RECHECK_MS = 100;
export const SPACE_HEADROOM_BYTES = 1024 ** 3;

const statfsFree = (dir: string) => {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};

interface TxClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Array<Results>>;
  prepared<T>(name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

type Subscription = { channel: string; onMessage: (payload: string) => void; unlisten?: () => Promise<void> };

/**
 * PGlite with a circuit breaker for a full disk, handed to drizzle in place of the PGlite instance. The instance is
 * PGlite on a thread of its own (pglite-thread.ts) in Vigil; PGlite itself works too.
 *
 * PGlite 0.5 runs PostgreSQL on the thread that calls it. Measured on a full tmpfs (pglite-guard.integration.test.ts):
 * once a statement has failed to create the next WAL segment ("could not write to file pg_wal/xlogtemp…: No
 * space left on device", 53100), the next command of any kind (even `SELECT 1`, or the ROLLBACK its own
 * `transaction()` sends) spins in WebAssembly forever (on the main thread: no event loop, so no /healthz and no
 * SIGTERM; on its own thread: no answer ever), and freeing space does not help. Closing that instance still
 * works, and a new one on the same directory recovers. Worse, when the same failure happens inside COMMIT of an
 * explicit transaction, COMMIT itself never returns (an error in a critical section, which PostgreSQL makes a
 * PANIC; on its own thread, pglite-thread.ts ends the thread after VIGIL_WATCHDOG_SECONDS). So this guard:
 * - refuses work (DatabaseFault 'disk_full') while free space is below `minFreeBytes`, so PGlite normally never
 *   meets ENOSPC at all: the only defence against the COMMIT case;
 * - after a disk-full error all the same, sends PGlite nothing more (not even a ROLLBACK) until `probe()` finds
 *   space again, closes the instance and opens a new one;
 * - runs all work one piece at a time itself, so that nothing already queued inside PGlite can reach it after
 *   such an error. Transactions are run here (BEGIN … COMMIT) for the same reason.
 * A thread that died (PgliteThreadLost) or a PANIC (PostgreSQL stopped: a flush to the disk failed…) is handled like
 * a full disk: refused (503) until `probe()` starts a new one, which recovers from the WAL.
 * The watchdog (cli/watchdog.ts) ends a process whose event loop is held anyway.
 */
export class PgliteGuard {
  private inner: PgliteConnection;
  private broken: DatabaseFault | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly subscriptions = new Set<Subscription>();
  /** Until when (on `now`'s clock) the last measurement of free space stands; see SPACE_RECHECK_MS. */
  private spaceTrustedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    inner: PgliteConnection,
    private readonly options: PgliteGuardOptions,
  ) {
    this.inner = inner;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.exclusive(() => this.run(() => this.inner.query<T>(text, params, options)));
  }

  exec(text: string, options?: QueryOptions): Promise<Array<Results>> {
    return this.exclusive(() => this.run(() => this.inner.exec(text, options)));
  }

  prepared<T>(name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.exclusive(() => this.run(() => this.named<T>(name, text, params, options)));
  }

  private named<T>(name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.inner.prepared ? this.inner.prepared<T>(name, text, params, options) : this.inner.query<T>(text, params, options);
  }

  transaction<T>(callback: (tx: TxClient) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await this.run(() => this.inner.exec('BEGIN'));
      let closed = false;
      const open = () => {
        if (closed) throw new Error('Transaction is closed');
      };
      const tx: TxClient = {
        query: (text, params, options) => (open(), this.run(() => this.inner.query(text, params, options))),
        exec: (text, options) => (open(), this.run(() => this.inner.exec(text, options))),
        prepared: (name, text, params, options) => (open(), this.run(() => this.named(name, text, params, options))),
        rollback: async () => {
          open();
          await this.run(() => this.inner.exec('ROLLBACK'));
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const result = await callback(tx);
        if (!closed) {
          closed = true;
          const [outcome] = await this.run(() => this.inner.exec('COMMIT'));
          // COMMIT of a transaction in error answers ROLLBACK: the callback swallowed a failed statement.
          if ((outcome as { command?: string } | undefined)?.command === 'ROLLBACK') {
            throw new Error('The transaction was rolled back: a statement in it failed');
          }
        }
        return result;
      } catch (error) {
        // After a disk fault the instance is replaced, which discards the transaction: a ROLLBACK would hang it.
        if (!closed && !this.broken) await this.run(() => this.inner.exec('ROLLBACK')).catch(() => {});
        closed = true;
        throw error;
      }
    });
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription: Subscription = { channel, onMessage };
    await this.exclusive(() => this.subscribe(subscription));
    this.subscriptions.add(subscription);
    return async () => {
      this.subscriptions.delete(subscription);
      await this.exclusive(async () => subscription.unlisten?.(), false).catch(() => {});
    };
  }

  /**
   * Health probe: while broken, reopens PGlite once there is room again; then `SELECT 1`. Throws the fault while
   * it lasts.
   */
  async probe(): Promise<void> {
    await this.exclusive(async () => {
      this.ensureSpace(true);
      if (this.broken) {
        await this.inner.close().catch(() => {});
        this.inner = await this.options.reopen();
        this.broken = undefined;
        for (const s of this.subscriptions) await this.subscribe(s);
      }
      await this.run(() => this.inner.query('SELECT 1'));
    }, false);
  }

  async close(): Promise<void> {
    await this.exclusive(() => this.inner.close(), false);
  }

  /** One piece of work at a time; `admit`: only if the database is not known to be failing. */
  private exclusive<T>(work: () => Promise<T>, admit = true): Promise<T> {
    const next = this.tail.then(() => {
      if (admit && this.broken) throw this.broken;
      if (admit) this.ensureSpace();
      return work();
    });
    this.tail = next.catch(() => {});
    return next;
  }

  /** Runs one command on PGlite unless it is broken, and marks it broken when the command met a full disk. */
  private async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.broken) throw this.broken;
    try {
      return await command();
    } catch (error) {
      if (faultKind(error) === 'disk_full') {
        this.broken = new DatabaseFault('disk_full', 'The embedded database met a full disk; it reopens when space is freed', { cause: error });
      } else if (error instanceof PgliteThreadLost) {
        this.broken = new DatabaseFault('connection', 'The embedded database thread stopped; it is started again', { cause: error });
      } else if (isPanic(error)) {
        // PostgreSQL stopped (a failed flush to the disk…) and answers nothing more: the next command would wait for
        // the thread watchdog.
        this.broken = new DatabaseFault('connection', 'The embedded database stopped (PANIC); it is started again', { cause: error });
      }
      throw error;
    }
  }

  private async subscribe(subscription: Subscription): Promise<void> {
    subscription.unlisten = await this.run(() => this.inner.listen(subscription.channel, subscription.onMessage));
  }

  /** Refuses work while free space is below the minimum; `fresh`: measure it whatever the last measurement said. */
  private ensureSpace(fresh = false): void {
    const now = this.options.now?.() ?? performance.now();
    if (!fresh && now < this.spaceTrustedUntil) return;
    const free = (this.options.freeBytes ?? statfsFree)(this.options.dataDir);
    this.spaceTrustedUntil = free >= this.options.minFreeBytes + SPACE_HEADROOM_BYTES ? now + SPACE_RECHECK_MS : Number.NEGATIVE_INFINITY;
    if (free < this.options.minFreeBytes) {
      throw new DatabaseFault(
        'disk_full',
        `Only ${Math.floor(free / 1048576)} MiB free on the data directory ${this.options.dataDir}; Vigil needs ${Math.ceil(this.options.minFreeBytes / 1048576)} MiB`,
      );
    }
  }
}
