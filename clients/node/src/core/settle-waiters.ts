/**
 * Promises waiting for a known set of events to settle (delivered or dropped). Each flush() waits
 * only for what was pending when it was called, so a steady stream of new events cannot keep it
 * from resolving.
 */
export class SettleWaiters {
  private readonly waiting: { pending: Set<number>; resolve: () => void }[] = [];

  get active(): boolean {
    return this.waiting.length > 0;
  }

  wait(pending: Iterable<number>): Promise<void> {
    const set = new Set(pending);
    if (set.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ pending: set, resolve }));
  }

  settled(seq: number): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const waiter = this.waiting[i]!;
      waiter.pending.delete(seq);
      if (waiter.pending.size === 0) {
        this.waiting.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  releaseAll(): void {
    for (const waiter of this.waiting.splice(0)) waiter.resolve();
  }
}
