import { faultKind, type FaultKind } from './faults.js';

export interface HealthOptions {
  /** A cheap round trip that throws while the database is failing. */
  ping(): Promise<void>;
  /** How often a failing database is probed until it answers again. */
  probeIntervalMs?: number;
  /** A ping slower than this counts as failed, so a wedged database cannot hold /readyz. */
  pingTimeoutMs?: number;
}

/**
 * Readiness of the database as this process sees it. Any dependency fault seen anywhere (a commit, a request, a
 * ping) marks it not ready; a background probe then pings until the database answers and marks it ready again,
 * so recovery needs no request and no operator.
 */
export class DatabaseHealth {
  private current: FaultKind | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private stopped = false;

  constructor(private readonly options: HealthOptions) {}

  /** The fault in force, or undefined when the database is believed healthy. */
  get fault(): FaultKind | undefined {
    return this.current;
  }

  /** Records `error` if it is a dependency fault (and starts probing); returns whether it was one. */
  observe(error: unknown): boolean {
    const kind = faultKind(error);
    if (!kind) return false;
    this.current = kind;
    this.startProbe();
    return true;
  }

  /** Pings now: a success clears the fault, a fault sets it. Never throws. */
  async check(): Promise<boolean> {
    const timeoutMs = this.options.pingTimeoutMs ?? 2000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('database ping timed out'), { code: 'ETIMEDOUT' })), timeoutMs);
    });
    try {
      await Promise.race([this.options.ping(), timeout]);
      this.current = undefined;
      return true;
    } catch (error) {
      // A failure that is not a known fault still means "not ready"; it is reported as a lost connection.
      if (!this.observe(error)) this.observe(Object.assign(new Error('database ping failed'), { code: 'ECONNRESET', cause: error }));
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private startProbe(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      if (this.probing) return;
      this.probing = true;
      void this.check().then((ok) => {
        this.probing = false;
        if (ok) {
          clearInterval(this.timer);
          this.timer = undefined;
        }
      });
    }, this.options.probeIntervalMs ?? 1000);
    // The probe never keeps a stopping process alive.
    this.timer.unref();
  }
}
