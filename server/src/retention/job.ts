import type { Db } from '../db/handle.js';
import type { StageLog } from '../pipeline/stage.js';
import { describeReport, type RetentionPolicy, runRetention } from './run.js';

export interface RetentionJobOptions extends RetentionPolicy {
  db: Db;
  log: StageLog;
  /** Between runs; a day, so the partitions ahead never run out and retention lags its policy by a day at most. */
  intervalMs?: number;
  /** After a failed run (a lock not granted, the database away): sooner than a day. */
  retryMs?: number;
  /** VIGIL_RETENTION_START_DELAY_SECONDS in ms: the first run waits this, and up to as long again; 0 runs it at start. */
  startDelayMs?: number;
}

/**
 * When the first run starts: at a random moment between `startDelayMs` and twice that after start. Not at start,
 * where it would compete with a cold server's first requests, and not at one moment for a fleet restarted together.
 */
export function firstRunDelay(startDelayMs: number, random: () => number = Math.random): number {
  return startDelayMs + Math.floor(random() * startDelayMs);
}

/**
 * The daily retention run inside `vigil serve`: once a few minutes after start (`firstRunDelay`), then every interval. Each process schedules it; the
 * advisory lock in `runRetention` lets one of them work while the others skip.
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private firstDone!: () => void;
  /** Settles when the first run has finished (done or failed) or the job closed, so a test's own runs do not race it. */
  readonly firstRun = new Promise<void>((resolve) => (this.firstDone = resolve));

  constructor(private readonly options: RetentionJobOptions) {}

  start(): void {
    this.schedule(firstRunDelay(this.options.startDelayMs ?? 0));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    this.firstDone();
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
        this.firstDone();
      });
    }, delayMs);
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    const { db, log, retentionDays, webhookRetentionDays } = this.options;
    try {
      const report = await runRetention(db, { retentionDays, webhookRetentionDays });
      log.info({ retention: report }, `retention: ${describeReport(report).join('; ')}`);
      this.schedule(this.options.intervalMs ?? 86_400_000);
    } catch (error) {
      log.warn({ err: error }, 'retention run failed; trying again later');
      this.schedule(this.options.retryMs ?? 3_600_000);
    }
  }
}
