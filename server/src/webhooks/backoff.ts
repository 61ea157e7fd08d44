/**
 * When a failed delivery is tried again: exponential backoff with full jitter (a uniform delay between 0 and
 * `base * 2^(attempt-1)`, capped), so receivers that failed together are not hit again together. A `Retry-After`
 * the receiver sent wins over the computed delay, up to a day (a receiver cannot park a message for ever). The schedule lives in the database
 * (`next_attempt_at`), so a retry loop library, which sleeps in-process, does not fit.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  random?: () => number;
}

const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export function retryDelayMs(attempt: number, policy: BackoffPolicy, retryAfterMs: number | null = null): number {
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
