import { RETRY } from './policy.js';

/**
 * Milliseconds a Retry-After header asks for (delay-seconds or HTTP-date, RFC 9110 §10.2.3), clamped to
 * [0, cap]; null when absent or unparseable, which then leaves the wait to the backoff.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number, capMs: number = RETRY.retryAfterCapMs): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  // Only an HTTP-date (it names a weekday and a month); Date.parse would also read "-5" or "2.5".
  else if (/[a-z]/i.test(trimmed)) {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  } else return null;
  return Math.min(capMs, Math.max(0, ms));
}
