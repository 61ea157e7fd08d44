/**
 * One subscriber's events, as the async iterator graphql-ws reads. The feed pushes; graphql-ws pulls as fast as
 * the socket takes them. More than `maxQueue` waiting means the client does not keep up: the subscription ends
 * and `onSlow` is told, so a slow consumer costs a bounded amount of memory.
 */
export class LiveSubscription<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private ended = false;

  constructor(
    private readonly maxQueue: number,
    private readonly onEnd: () => void,
    private readonly onSlow: (message: string) => void,
  ) {}

  get done(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value, done: false });
      return;
    }
    this.queue.push(value);
    if (this.queue.length > this.maxQueue) this.fallBehind(`Slow consumer: more than ${this.maxQueue} events waiting (VIGIL_LIVE_MAX_QUEUE)`);
  }

  /** Ends the subscription as one that fell behind, and tells `onSlow` why. */
  fallBehind(message: string): void {
    if (this.ended) return;
    this.end();
    this.onSlow(message);
  }

  /** Ends the subscription; events still queued are dropped. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
    this.onEnd();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
