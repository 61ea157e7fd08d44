import { VigilError } from '../errors.js';
import { faultKind } from './faults.js';

/** What /readyz reports of the reporting replica. */
/** How often the primary's position is sampled: a commit since the last sample is not yet counted as lag. */
export const REPLICA_SAMPLE_MS = 1000;

export interface ReplicaState {
  status: 'ready' | 'lagging' | 'unreachable';
  /** Seconds of the primary's history the replica has not replayed yet; null while it cannot be asked. */
  lagSeconds: number | null;
}

export interface ReplicaMonitorOptions {
  /** The primary's WAL position now (`pg_current_wal_lsn()`), e.g. `0/3000148`. */
  primaryPosition(): Promise<string>;
  /** The position the replica has replayed (`pg_last_wal_replay_lsn()`); null when it is not a standby at all. */
  replicaPosition(): Promise<string | null>;
  /** Reporting reads are refused while the replica is further behind than this. */
  maxLagMs: number;
  /** How often both are asked. */
  intervalMs?: number;
  now?: () => number;
}

/** Retry-After of a refused reporting read: a restarting replica or a burst of WAL takes seconds. */
const RETRY_AFTER_SECONDS = 5;

/** SQLSTATE a hot standby cancels a read with when it conflicts with WAL being replayed. */
const SERIALIZATION_FAILURE = '40001';

/** `X/Y` (two hex halves) as one number, so positions compare. */
function position(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * Whether the replica GraphQL and /api reads run on may be used, and how far behind it is. Lag is measured in the
 * primary's time: every tick records where the primary's WAL is, and the replica is as far behind as the oldest
 * recorded position it has not replayed. This needs no clock agreement between the servers and, unlike
 * `now() - pg_last_xact_replay_timestamp()`, does not mistake a quiet primary for a lagging replica.
 *
 * Only reporting reads consult it; ingestion and /readyz's answer never depend on the replica.
 */
export class ReplicaMonitor {
  /** Primary positions not yet replayed, oldest first. */
  private pending: Array<{ at: number; lsn: bigint }> = [];
  private reachable = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly limit: number;

  constructor(private readonly options: ReplicaMonitorOptions) {
    this.now = options.now ?? Date.now;
    // Enough samples to see the limit passed; older ones would only say "even further behind".
    this.limit = Math.ceil(options.maxLagMs / (options.intervalMs ?? REPLICA_SAMPLE_MS)) + 10;
  }

  get state(): ReplicaState {
    if (!this.reachable) return { status: 'unreachable', lagSeconds: null };
    const lagMs = this.lagMs();
    return { status: lagMs > this.options.maxLagMs ? 'lagging' : 'ready', lagSeconds: Math.round(lagMs / 100) / 10 };
  }

  /** Asks both servers once; never throws. Concurrent calls share one round. */
  check(): Promise<void> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? REPLICA_SAMPLE_MS);
    // The monitor never keeps a stopping process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A reporting read met `error`: if the replica is unreachable, say so until the next round finds it back. */
  observe(error: unknown): boolean {
    if (!faultKind(error)) return false;
    this.reachable = false;
    return true;
  }

  /** Throws the 503 a reporting read gets while the replica is unreachable or too far behind. */
  assertUsable(): void {
    const state = this.state;
    if (state.status === 'unreachable') {
      throw this.unavailable(
        'The reporting replica (DATABASE_REPLICA_URL) is not reachable; reports are unavailable until it is back. Events are still accepted.',
      );
    }
    if (state.status === 'lagging') {
      const limit = this.options.maxLagMs / 1000;
      throw this.unavailable(
        `The reporting replica is ${Math.round(state.lagSeconds ?? 0)} s behind the primary (more than VIGIL_REPLICA_MAX_LAG_SECONDS=${limit}); reports are unavailable until it catches up. Events are still accepted.`,
      );
    }
  }

  /**
   * The answer for a reporting read that failed on the replica, or undefined when the failure is not the
   * replica's. Never a bare database fault: that would mark the primary not ready (/readyz) as well.
   */
  failure(error: unknown): VigilError | undefined {
    if (this.observe(error))
      return this.unavailable('The reporting replica (DATABASE_REPLICA_URL) stopped answering; retry later. Events are still accepted.', error);
    if ((error as { code?: unknown } | null)?.code === SERIALIZATION_FAILURE) {
      return this.unavailable('The reporting replica cancelled this read to apply changes from the primary; retry it.', error);
    }
    return undefined;
  }

  private unavailable(detail: string, cause?: unknown): VigilError {
    return new VigilError('unavailable', detail, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause });
  }

  private lagMs(): number {
    const oldest = this.pending[0];
    return oldest ? Math.max(0, this.now() - oldest.at) : 0;
  }

  private async round(): Promise<void> {
    const at = this.now();
    try {
      this.pending.push({ at, lsn: position(await this.options.primaryPosition()) });
      if (this.pending.length > this.limit) this.pending.shift();
    } catch {
      // The primary's own health reports that; the replica's lag is judged on what was recorded before.
    }
    try {
      const replayed = await this.options.replicaPosition();
      this.reachable = true;
      const upTo = replayed === null ? undefined : position(replayed);
      this.pending = upTo === undefined ? [] : this.pending.filter((sample) => sample.lsn > upTo);
    } catch {
      this.reachable = false;
    }
  }
}
