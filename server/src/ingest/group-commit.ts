/**
 * Group commit: requests that arrive while a commit is in flight wait and are written together in the next one,
 * so throughput comes from fewer, larger commits — never from answering before the data is durable.
 */
/**
 * One item's failure in a batch that was otherwise written: only its request fails. Throwing instead would retry
 * the batch item by item, writing its committed neighbours a second time.
 */
export class ItemFailure {
  constructor(readonly error: unknown) {}
}

export interface GroupCommitOptions<I, O> {
  /**
   * Writes a batch durably and returns one outcome per item, in order (an `ItemFailure` for an item that alone
   * failed after the rest was written). Throws only if nothing was written.
   */
  commit(items: I[]): Promise<(O | ItemFailure)[]>;
  maxBatch: number;
  /** Commits allowed in flight at once. */
  concurrency: number;
  /**
   * How long the newest commit in flight must have run before another may start beside it (0: at once). Each
   * commit costs the database a statement, a commit record and a flush whatever its size, so a batch that waits
   * for the one in flight goes out larger and cheaper; a commit stuck behind a lock or a slow flush still lets the
   * rest of the queue through once this has passed.
   */
  overlapAfterMs?: number;
  /**
   * How long the oldest waiting item may wait for others before its batch starts (0: at once), unless the batch is
   * full. Under a light load a commit would otherwise carry one or two items, and each commit costs its statement,
   * its commit record and its flush however small it is; items that already waited this long behind a commit in
   * flight go as soon as it ends.
   */
  lingerMs?: number;
  /** Milliseconds on a monotonic clock (default `performance.now`); tests drive it. */
  now?(): number;
  /**
   * Called after each commit that returned (a batch, or an item of a failed batch retried alone), with its size and
   * the milliseconds it took on `now`'s clock: what an operator watches to see the database's cost per commit.
   */
  onCommitted?(size: number, ms: number): void;
  /** Called when a batch failed as a whole and is retried item by item. */
  onBatchFailure?(error: unknown, size: number): void;
  /**
   * Whether a failed batch is worth retrying item by item (default: always). A failure of the database itself
   * fails every item alike: retrying them one by one would only hold each request for another failed round trip.
   */
  isolate?(error: unknown): boolean;
}

interface Waiter<I, O> {
  item: I;
  /** When it was submitted, on `now`'s clock. */
  at: number;
  resolve(outcome: O): void;
  reject(error: unknown): void;
}

export class GroupCommitter<I, O> {
  private queue: Waiter<I, O>[] = [];
  /** When each commit in flight started, oldest first. */
  private starts: number[] = [];
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];
  private overlapTimer: NodeJS.Timeout | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly options: GroupCommitOptions<I, O>) {
    this.now = options.now ?? (() => performance.now());
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, at: this.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far is committed (or failed). */
  async drain(): Promise<void> {
    if (this.queue.length === 0 && this.starts.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  get pending(): number {
    return this.queue.length + this.starts.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // One macrotask of patience lets requests parsed in the same I/O turn share a commit.
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.starts.length < this.options.concurrency) {
      if (this.starts.length > 0 && this.waitToOverlap()) return;
      if (this.waitToLinger()) return;
      const batch = this.queue.splice(0, this.options.maxBatch);
      // A linger pending for items now in this batch would only pump again, and keep a closing process alive.
      clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
      const started = this.now();
      this.starts.push(started);
      void this.run(batch).finally(() => {
        this.starts.splice(this.starts.indexOf(started), 1);
        if (this.queue.length > 0) this.pump();
        else if (this.starts.length === 0) this.idleWaiters.splice(0).forEach((w) => w());
      });
    }
  }

  /** True when the queue must wait for the commits in flight a while longer; it is pumped again then. */
  private waitToOverlap(): boolean {
    const wait = this.starts.at(-1)! + (this.options.overlapAfterMs ?? 0) - this.now();
    if (wait <= 0) return false;
    // A commit that ends first pumps the queue itself; the timer only matters if none ends in time, and must not
    // keep a process that has nothing else to do alive.
    this.overlapTimer ??= setTimeout(() => {
      this.overlapTimer = undefined;
      this.pump();
    }, Math.ceil(wait)).unref();
    return true;
  }

  /** True when the queue is not full and its oldest item may wait a while longer for others; it is pumped then. */
  private waitToLinger(): boolean {
    if (this.queue.length >= this.options.maxBatch) return false;
    const wait = this.queue[0]!.at + (this.options.lingerMs ?? 0) - this.now();
    if (wait <= 0) return false;
    // Not unref'd, unlike the overlap's timer: nothing else may be in flight to pump the queue.
    this.lingerTimer ??= setTimeout(() => {
      this.lingerTimer = undefined;
      this.pump();
    }, Math.ceil(wait));
    return true;
  }

  private async run(batch: Waiter<I, O>[]): Promise<void> {
    try {
      const outcomes = await this.timed(batch.map((w) => w.item));
      batch.forEach((w, i) => settle(w, outcomes[i]!));
      return;
    } catch (error) {
      if (batch.length === 1 || this.options.isolate?.(error) === false) {
        batch.forEach((w) => w.reject(error));
        return;
      }
      this.options.onBatchFailure?.(error, batch.length);
    }
    // One bad item must not fail its neighbours: retry each alone.
    for (const w of batch) {
      try {
        const [outcome] = await this.timed([w.item]);
        settle(w, outcome!);
      } catch (error) {
        w.reject(error);
      }
    }
  }

  private async timed(items: I[]): Promise<(O | ItemFailure)[]> {
    const started = this.now();
    const outcomes = await this.options.commit(items);
    try {
      this.options.onCommitted?.(items.length, this.now() - started);
    } catch {
      // The batch is durable: a failing observer must not make it look failed, and retried (written) again.
    }
    return outcomes;
  }
}

function settle<I, O>(waiter: Waiter<I, O>, outcome: O | ItemFailure): void {
  if (outcome instanceof ItemFailure) waiter.reject(outcome.error);
  else waiter.resolve(outcome);
}
