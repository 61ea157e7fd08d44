/**
 * PGlite runs PostgreSQL as a single-user backend: no checkpointer process, and a single-user backend never asks
 * for a checkpoint when the WAL fills `max_wal_size` (PostgreSQL only does that under a postmaster). Left alone, it
 * checkpoints only when it shuts down, so `pg_wal` grows by every byte written since the process started (about 2.6 kB
 * an event, a gigabyte every few minutes at full speed) and a crash replays all of it on the next start. This is
 * PostgreSQL's checkpointer for it, with PostgreSQL's own settings (`postgresql.conf` in the data directory):
 * - a checkpoint once the WAL since the last one reaches half of `max_wal_size` (1 GB by default), so that what is
 *   kept (that WAL, and the segments PostgreSQL keeps for reuse) stays within `max_wal_size`;
 * - and once `checkpoint_timeout` (5 min) has passed since the last one, if more than a WAL page was written.
 * A single-user backend runs a checkpoint at once and to its end: every statement waits for it (measured: 0.18-0.26 s
 * for what 20-30 s at full speed left, about half of it flushes, the rest writing dirty buffers; its length follows
 * shared_buffers), so they come no more often than PostgreSQL's own settings ask.
 *
 * What PostgreSQL's checkpointer does instead, spreading the writes over the interval, a single-user backend cannot.
 * The next best is to hold no writer: once nothing has been written for half a measurement interval or more (a lull:
 * a measurement queued behind a slow statement can come sooner after the last than the interval) and the
 * WAL since the last checkpoint is a sixteenth of `max_wal_size` or more, the checkpoint is taken then, so the one the
 * WAL would have forced mid-traffic comes later or not at all. Under constant load there is no lull and nothing changes.
 */

/** What the checkpointer sends to the database: PgliteGuard, or PGlite itself. */
export interface CheckpointTarget {
  query<T>(text: string): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
}

export interface CheckpointerOptions {
  /** How often the WAL is measured. Half of it, with nothing written, makes a lull. */
  everyMs: number;
  /** Milliseconds on a monotonic clock (performance.now by default; tests pass their own). */
  now?: () => number;
}

/** Checkpoints run, by cause, and the seconds they held the database. */
export interface CheckpointCounts {
  wal: number;
  time: number;
  lull: number;
  seconds: number;
  /** Measurements or checkpoints that failed: while the database is down, but also any that would leave pg_wal growing. */
  failed: number;
}

interface WalState {
  wal: number;
  /** The WAL's insert position: the same at two measurements when nothing was written between them. */
  at: string;
  max_wal: number;
  age: number;
  timeout: number;
}

export type CheckpointCause = 'wal' | 'time' | 'lull';

/**
 * What one measurement decides: checkpoint now, and why, or not. `previousAt`: the insert position the measurement
 * before this one found, if it was at least half an interval before and no checkpoint came between.
 */
export function checkpointCause(state: WalState, previousAt?: string): CheckpointCause | undefined {
  if (state.wal >= state.max_wal / 2) return 'wal';
  // The last checkpoint's own records come after its redo point; less than a WAL page since then is nothing else.
  if (state.age >= state.timeout && state.wal >= WAL_PAGE) return 'time';
  // Below a sixteenth, a server with a few events now and then would checkpoint after each, and the first change
  // of every page after a checkpoint logs the whole page.
  if (state.at === previousAt && state.wal >= state.max_wal / LULL_SHARE) return 'lull';
  return undefined;
}

const WAL_PAGE = 8192;
const LULL_SHARE = 16;

/**
 * The WAL since the last checkpoint's redo point, the limits, and the last checkpoint's age, in bytes and seconds.
 * current_setting in place of a read of pg_settings, which builds every setting: 0.5 ms against 1.2 ms, every second.
 */
const MEASURE = `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), c.redo_lsn)::float8 AS wal,
  pg_current_wal_insert_lsn()::text AS at,
  pg_size_bytes(current_setting('max_wal_size'))::float8 AS max_wal,
  extract(epoch FROM clock_timestamp() - c.checkpoint_time)::float8 AS age,
  extract(epoch FROM current_setting('checkpoint_timeout')::interval)::float8 AS timeout
FROM pg_control_checkpoint() c`;

export class PgliteCheckpointer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Checkpoints run since this checkpointer started, by cause, their seconds, and failures, for /metrics. */
  readonly counts: CheckpointCounts = { wal: 0, time: 0, lull: 0, seconds: 0, failed: 0 };
  /** The last measurement's insert position and time, while no checkpoint or failure has come since. */
  private previous: { at: string; ms: number } | undefined;
  private readonly now: () => number;

  constructor(
    private readonly target: CheckpointTarget,
    private readonly options: CheckpointerOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
  }

  /** Stops measuring, and waits for a checkpoint under way, so the database can be closed after. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One measurement, and the checkpoint it calls for; none while the last is still running. */
  tick(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<void> {
    try {
      const [state] = (await this.target.query<WalState>(MEASURE)).rows;
      const measured = this.now();
      const quietSince = this.previous && measured - this.previous.ms >= this.options.everyMs / 2 ? this.previous.at : undefined;
      const cause = state && checkpointCause(state, quietSince);
      this.previous = state && !cause ? { at: state.at, ms: measured } : undefined;
      if (!cause) return;
      const started = this.now();
      await this.target.exec('CHECKPOINT');
      this.counts[cause]++;
      this.counts.seconds += (this.now() - started) / 1000;
    } catch {
      // The database is down or its disk full: the guard answers requests 503 until it has reopened it, which
      // recovers from the WAL; the next measurement tries again. Counted, so that failures that last show.
      this.counts.failed++;
      this.previous = undefined;
    }
  }
}
