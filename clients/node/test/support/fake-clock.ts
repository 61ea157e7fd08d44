import type { Clock } from '../../src/core/clock.js';

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

/**
 * A clock whose time moves only when the test says so. `advance` fires due timers in order and
 * lets the promise chains they start settle before moving on, so retry sequences run exactly.
 */
export class FakeClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 0;

  constructor(start = Date.parse('2025-01-01T00:00:00Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    const timer = { id: this.nextId++, due: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers not yet fired, soonest first (as delays from now). */
  get pending(): number[] {
    return this.timers.map((t) => t.due - this.time).sort((a, b) => a - b);
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await settle();
    for (;;) {
      const next = this.timers.filter((t) => t.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (next === undefined) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.due;
      next.callback();
      await settle();
    }
    this.time = target;
    await settle();
  }
}

/** Lets every pending promise reaction run (a real macrotask turn). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
