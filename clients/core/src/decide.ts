import { backoffDelay, retryDelay } from './backoff.js';
import { shrinkBatch } from './batch.js';
import { classifyStatus } from './classify.js';
import { RETRY } from './policy.js';
import { parseRetryAfter } from './retry-after.js';

export interface Attempt {
  /** HTTP status, or null when no answer came. */
  status: number | null;
  retryAfter?: string | null;
  nowMs: number;
  /** 1 for the first failure in a row: drives the backoff. */
  failure: number;
  /** Retryable answers this event has had, this one included: drives giving up. */
  attempts: number;
  /** A number in [0, 1) for the jitter. */
  random: number;
  /** Events in the request that got this answer. */
  batchSize: number;
}

/** What to do next, as data. */
export type Decision =
  | { kind: 'done' }
  | { kind: 'retry'; delayMs: number; countsAsAttempt: boolean }
  | { kind: 'give_up' }
  | { kind: 'shrink'; batchLimit: number }
  | { kind: 'drop'; reason: 'refused' | 'too_large' };

/** The whole policy for one answer; clients with their own loop use the small functions it is made of. */
export function decide(attempt: Attempt): Decision {
  switch (classifyStatus(attempt.status)) {
    case 'done':
      return { kind: 'done' };
    case 'drop':
      return { kind: 'drop', reason: 'refused' };
    case 'shrink': {
      const batchLimit = shrinkBatch(attempt.batchSize);
      return batchLimit === null ? { kind: 'drop', reason: 'too_large' } : { kind: 'shrink', batchLimit };
    }
    case 'retry': {
      if (attempt.status === null) {
        return { kind: 'retry', delayMs: backoffDelay(attempt.failure, attempt.random), countsAsAttempt: false };
      }
      if (attempt.attempts >= RETRY.maxAttempts) return { kind: 'give_up' };
      const retryAfterMs = parseRetryAfter(attempt.retryAfter, attempt.nowMs);
      return { kind: 'retry', delayMs: retryDelay(attempt.failure, attempt.random, retryAfterMs), countsAsAttempt: true };
    }
  }
}
