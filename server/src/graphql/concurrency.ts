/** How many of something each key may have running at once (in this process). */
export class ConcurrencyLimit {
  private readonly running = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A function that gives the place back, or null when `key` already has `max` running. */
  tryAcquire(key: string): (() => void) | null {
    const count = this.running.get(key) ?? 0;
    if (count >= this.max) return null;
    this.running.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
  }
}
