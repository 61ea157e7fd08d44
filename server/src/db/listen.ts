import type { DatabaseHandle } from './handle.js';

type Listen = DatabaseHandle['listen'];

/** Waits between attempts at a subscription: the first, doubling up to the most. */
export interface RetryDelays {
  firstMs: number;
  maxMs: number;
}

/** 250 ms doubling to 5 s: a first subscription that failed here, and a lost one in pg-listener, are re-made alike. */
export const LISTEN_RETRY: RetryDelays = { firstMs: 250, maxMs: 5000 };

/**
 * `listen`, except that a first subscription that fails does not fail the caller: it is reported as a lost channel
 * (`onLost`) and retried in the background until made, then reported as restored (`onRestored`), as a channel that
 * went down and came back is. For subscribers whose owner keeps working without them (a cache still correct, only
 * less fresh, while it hears nothing) and must learn of changes once the channel is up, which a start that only
 * logged the failure never did.
 */
export async function listenOrRetry(
  listen: Listen,
  channel: string,
  onMessage: (payload: string) => void,
  onLost: (error: Error) => void,
  onRestored?: () => void,
  delays: RetryDelays = LISTEN_RETRY,
): Promise<() => Promise<void>> {
  try {
    return await listen(channel, onMessage, onLost, onRestored);
  } catch (error) {
    onLost(error instanceof Error ? error : new Error(String(error)));
  }
  let stopped = false;
  let unlisten: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let delay = delays.firstMs;
  const schedule = () => {
    timer = setTimeout(() => (inFlight = attempt()), delay);
    delay = Math.min(delay * 2, delays.maxMs);
  };
  const attempt = async () => {
    let made: () => Promise<void>;
    try {
      made = await listen(channel, onMessage, onLost, onRestored);
    } catch {
      if (!stopped) schedule();
      return;
    }
    if (stopped) return void (await made().catch(() => {}));
    unlisten = made;
    try {
      onRestored?.();
    } catch {
      // The subscriber's to handle; a throw here would be an unhandled rejection, which ends the process.
    }
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    // An attempt under way ends what it makes before this returns: the caller may close the database next.
    await inFlight;
    await unlisten?.();
  };
}
