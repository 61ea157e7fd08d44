import type { EventBody, Problem } from './wire.js';

/**
 * Why a failure happened. Expected outcomes (insights, fail-open results) are data; these are the
 * failures, reported through the `onError` hook and never thrown into the host application.
 */
export type VigilErrorCode =
  /** No response: connection refused, reset, DNS failure. */
  | 'network'
  /** No response within the configured timeout. */
  | 'timeout'
  /** The service answered with a status that is not a success (see `status` and `problem`). */
  | 'http'
  /** The service is asking us to wait (429 / Retry-After) and the call was not sent. */
  | 'rate_limited'
  /** A batch item was refused by the service (see `status` and `problem`). */
  | 'rejected'
  /** The service answered 2xx with a body that is not the documented shape. */
  | 'invalid_response'
  /** The event itself is unusable (bad name, not serialisable) and was never sent. */
  | 'invalid_event'
  /** The in-memory queue is full; the event was dropped. */
  | 'queue_full'
  /** The event was retried `maxAttempts` times and given up. */
  | 'retries_exhausted'
  /** The client was closed (or its close timeout ran out) before the event could be sent. */
  | 'closed'
  /** Invalid options; the only error that is thrown, and only at construction. */
  | 'config';

export interface VigilErrorDetails {
  status?: number;
  problem?: Problem;
  /** Events permanently lost because of this failure (empty when they will still be retried). */
  dropped?: readonly EventBody[];
  cause?: unknown;
}

export class VigilError extends Error {
  override readonly name = 'VigilError';
  readonly code: VigilErrorCode;
  readonly status: number | undefined;
  readonly problem: Problem | undefined;
  readonly dropped: readonly EventBody[];

  constructor(code: VigilErrorCode, message: string, details: VigilErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.problem = details.problem;
    this.dropped = details.dropped ?? [];
  }

  /** A copy that records which events were lost, so one failure can be reported for a whole batch. */
  withDropped(dropped: readonly EventBody[]): VigilError {
    return new VigilError(this.code, this.message, {
      status: this.status,
      problem: this.problem,
      dropped,
      cause: this.cause,
    });
  }
}
