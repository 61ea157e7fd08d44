/**
 * Time as the core sees it. Injected so that retry, backoff and timeout behaviour can be driven
 * step by step in tests instead of by waiting on the wall clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `callback` after `ms` milliseconds; the returned function cancels it. */
  setTimeout(callback: () => void, ms: number): () => void;
}

/** The real clock: Date.now and the platform's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    return () => clearTimeout(handle);
  },
};
