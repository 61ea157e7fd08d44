import { RETRY } from './policy.js';

export interface BackoffPolicy {
  baseDelayMs: number;
  multiplier: number;
  maxDelayMs: number;
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random. The fixed half keeps retries from
 * hammering a struggling server; the random half spreads out clients that failed at the same moment.
 *
 * @param failure 1 for the first consecutive failure.
 * @param random a number in [0, 1), injected so tests (and the shared cases) can pin it.
 */
export function backoffDelay(failure: number, random: number, policy: BackoffPolicy = RETRY): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.multiplier ** Math.max(0, failure - 1));
  const r = Math.min(1, Math.max(0, random));
  // floor, not round: the same formula in Kotlin must give the same milliseconds.
  return Math.floor(step / 2 + (step / 2) * r);
}

/**
 * The wait before the next send: the backoff, but never less than what the server asked for. Honouring
 * Retry-After as a floor keeps the jitter, so clients told "5 s" together do not all return at the same instant.
 */
export function retryDelay(failure: number, random: number, retryAfterMs: number | null, policy: BackoffPolicy = RETRY): number {
  return Math.max(retryAfterMs ?? 0, backoffDelay(failure, random, policy));
}
