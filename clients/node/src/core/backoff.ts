export interface BackoffPolicy {
  /** Delay before the first retry, before jitter. */
  minDelayMs: number;
  /** Upper bound for the exponential delay. */
  maxDelayMs: number;
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random. The fixed half
 * keeps retries from hammering a struggling service; the random half spreads out the clients that
 * all failed at the same moment.
 *
 * @param attempt 1 for the first retry.
 * @param random a number in [0, 1), injected so tests can pin it.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const exponential = policy.minDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxDelayMs, exponential);
  return Math.round(capped / 2 + (capped / 2) * random());
}
