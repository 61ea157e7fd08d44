import { batchCount, classifyStatus, growBatch, RETRY, retryDelay, shrinkBatch } from '@vigil/client-core';
import { classifyResponse } from './classify.js';
import { describeCause } from './describe.js';
import { VigilError } from './errors.js';
import { reportError } from './report.js';
import type { ResolvedCoreOptions } from './options.js';
import { requestHeaders } from './headers.js';
import { SettleWaiters } from './settle-waiters.js';
import type { HttpResponse } from './transport.js';
import type { BatchItemResult, EventBody } from './wire.js';

interface Pending {
  event: EventBody;
  bytes: number;
  /** Answers with a retryable status so far (failures without an answer do not count, by the client policy). */
  attempts: number;
  seq: number;
  /** When it was tracked: a batch is due flushInterval after its oldest event. */
  queuedAt: number;
}

export interface CloseResult {
  /** True when everything queued was delivered (or refused by the service) before the timeout. */
  flushed: boolean;
  /** Events still unsent when the timeout ran out; they were reported through onError. */
  dropped: number;
}

/** Bytes of `{"events":[` + `]}` around the events. */
const BATCH_ENVELOPE = 13;

/**
 * The fire-and-forget path: a bounded in-memory queue drained by one request at a time to
 * POST /events/batch. One request in flight keeps ordering simple and makes backoff global: when
 * the service says "wait", nothing is sent until the wait is over.
 */
export class BatchSender {
  private readonly queue: Pending[] = [];
  private inFlight: Pending[] = [];
  private abortInFlight: (() => void) | undefined;
  private cancelTimer: (() => void) | undefined;
  private timerDue = Infinity;
  private nextSeq = 0;
  /** No batch is sent before this time (ms epoch): set by backoff and Retry-After. */
  private pausedUntil = 0;
  private consecutiveFailures = 0;
  /** Shrinks after a 413 and grows back after successes. */
  private batchLimit: number;
  private readonly waiters = new SettleWaiters();
  private closing: Promise<CloseResult> | undefined;
  private terminated = false;

  constructor(private readonly options: ResolvedCoreOptions) {
    this.batchLimit = options.maxBatchSize;
  }

  /** Events queued or in flight. */
  get size(): number {
    return this.queue.length + this.inFlight.length;
  }

  get isClosed(): boolean {
    return this.closing !== undefined;
  }

  /** When the service last asked for a pause (429 / 5xx backoff), so trackAsync can respect it too. */
  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  /** Records a pause learnt elsewhere (a trackAsync 429) so the batch path respects it too. */
  pause(untilMs: number): void {
    if (untilMs > this.pausedUntil) this.pausedUntil = untilMs;
  }

  enqueue(event: EventBody, bytes: number): void {
    if (this.closing !== undefined) {
      this.report(new VigilError('closed', 'the Vigil client is closed; event dropped', { dropped: [event] }));
      return;
    }
    if (this.size >= this.options.maxQueueSize) {
      this.report(
        new VigilError('queue_full', `queue is full (${this.options.maxQueueSize} events); event dropped`, {
          dropped: [event],
        }),
      );
      return;
    }
    this.queue.push({ event, bytes, attempts: 0, seq: this.nextSeq++, queuedAt: this.options.clock.now() });
    this.schedule();
  }

  /** Sends everything queued now (respecting any pause the service asked for) and resolves once it settled. */
  flush(): Promise<void> {
    const pending = [...this.inFlight, ...this.queue].map((p) => p.seq);
    const done = this.waiters.wait(pending);
    this.schedule();
    return done;
  }

  /**
   * Stops accepting events, sends what is queued and resolves when done or after `timeoutMs`; what
   * is left then is dropped and reported. Never rejects. Calling it again returns the same result.
   */
  close(timeoutMs: number): Promise<CloseResult> {
    if (this.closing !== undefined) return this.closing;
    this.closing = new Promise<CloseResult>((resolve) => {
      let finished = false;
      const cancelDeadline = this.options.clock.setTimeout(() => {
        if (finished) return;
        finished = true;
        resolve({ flushed: false, dropped: this.terminate() });
      }, timeoutMs);
      void this.flush().then(() => {
        if (finished) return;
        finished = true;
        cancelDeadline();
        this.cancelTimer?.();
        resolve({ flushed: true, dropped: 0 });
      });
    });
    return this.closing;
  }

  private terminate(): number {
    this.terminated = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.abortInFlight?.();
    const left = [...this.inFlight, ...this.queue.splice(0)];
    this.inFlight = [];
    if (left.length > 0) {
      this.report(
        new VigilError('closed', `close timed out with ${left.length} event(s) not confirmed by the service`, {
          dropped: left.map((p) => p.event),
        }),
      );
    }
    this.waiters.releaseAll();
    return left.length;
  }

  /** Decides whether to send now, later, or not at all; the single place that arms the timer. */
  private schedule(): void {
    if (this.terminated || this.inFlight.length > 0 || this.queue.length === 0) return;
    const now = this.options.clock.now();
    if (now < this.pausedUntil) {
      this.armTimer(this.pausedUntil - now, true);
      return;
    }
    const urgent = this.waiters.active || this.closing !== undefined || this.queue.length >= this.batchLimit;
    const dueIn = this.queue[0]!.queuedAt + this.options.flushInterval - now;
    if (urgent || dueIn <= 0) {
      this.sendBatch();
    } else {
      this.armTimer(dueIn, false);
    }
  }

  /**
   * Arms the one timer. A flush-interval timer is never pushed back by newer events (else a steady
   * trickle would never be sent); a pause replaces whatever was armed.
   */
  private armTimer(ms: number, replace: boolean): void {
    const clock = this.options.clock;
    const due = clock.now() + ms;
    if (this.cancelTimer !== undefined && !replace && this.timerDue <= due) return;
    this.cancelTimer?.();
    this.timerDue = due;
    this.cancelTimer = clock.setTimeout(() => {
      this.cancelTimer = undefined;
      this.timerDue = Infinity;
      this.schedule();
    }, ms);
  }

  private takeBatch(): Pending[] {
    const limits = { maxEvents: this.batchLimit, maxBytes: this.options.maxBatchBytes };
    const count = batchCount(
      this.queue.slice(0, this.batchLimit).map((p) => p.bytes),
      limits,
      BATCH_ENVELOPE,
    );
    return this.queue.splice(0, count);
  }

  private sendBatch(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerDue = Infinity;
    const batch = this.takeBatch();
    if (batch.length === 0) return;
    this.inFlight = batch;

    const { clock, transport, requestTimeout, endpoint } = this.options;
    const controller = new AbortController();
    let timedOut = false;
    const cancelTimeout = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, requestTimeout);
    this.abortInFlight = () => controller.abort();

    let request: Promise<HttpResponse>;
    try {
      request = transport.send({
        url: `${endpoint}/events/batch`,
        method: 'POST',
        headers: requestHeaders(this.options),
        // Stamped at each send, retries included: the service corrects every timestamp by this clock's error.
        body: JSON.stringify({ events: batch.map((p) => p.event), sent_at: new Date(clock.now()).toISOString() }),
        signal: controller.signal,
      });
    } catch (cause) {
      request = Promise.reject(cause);
    }
    void request
      .then(
        (response) => this.settleBatch(batch, () => this.onResponse(batch, response)),
        (cause: unknown) =>
          this.settleBatch(batch, () => {
            const error = timedOut
              ? new VigilError('timeout', `POST /events/batch timed out after ${requestTimeout} ms`, { cause })
              : new VigilError('network', `POST /events/batch failed: ${describeCause(cause)}`, { cause });
            this.retryLater(batch, error, { answered: false, retryAfterMs: undefined });
          }),
      )
      .finally(cancelTimeout);
  }

  private settleBatch(batch: Pending[], handle: () => void): void {
    // After a forced close the batch was already reported as dropped.
    if (this.terminated || this.inFlight !== batch) return;
    this.inFlight = [];
    this.abortInFlight = undefined;
    try {
      handle();
    } catch (cause) {
      // A bug here must not wedge the queue or escape into the host app.
      this.drop(batch, new VigilError('invalid_response', `could not handle the batch response: ${describeCause(cause)}`, { cause }));
    }
    this.schedule();
  }

  private onResponse(batch: Pending[], response: HttpResponse): void {
    const verdict = classifyResponse(response, this.options.clock.now(), this.options.maxRetryAfter);
    switch (verdict.kind) {
      case 'success':
        this.onSuccess(batch, response);
        return;
      case 'retry':
        this.retryLater(batch, verdict.error, { answered: true, retryAfterMs: verdict.retryAfterMs });
        return;
      case 'shrink': {
        // Too large for the service: resend the same events in smaller batches; a single one can never fit.
        const limit = shrinkBatch(batch.length);
        if (limit === null) {
          this.drop(batch, verdict.error);
        } else {
          this.batchLimit = limit;
          this.queue.unshift(...batch);
        }
        return;
      }
      case 'drop':
        this.drop(batch, verdict.error);
        return;
    }
  }

  private onSuccess(batch: Pending[], response: HttpResponse): void {
    const results = parseBatchResults(response.body, batch.length);
    if (results === undefined) {
      // Safe to resend: every event carries its idempotency key.
      this.retryLater(batch, new VigilError('invalid_response', 'POST /events/batch answered 2xx without a results array matching the batch'), {
        answered: true,
        retryAfterMs: undefined,
      });
      return;
    }
    this.consecutiveFailures = 0;
    this.batchLimit = growBatch(this.batchLimit, this.options.maxBatchSize);
    const retry: Pending[] = [];
    results.forEach((result, i) => {
      const pending = batch[i]!;
      const verdict = classifyStatus(result.status);
      if (verdict === 'done') {
        this.waiters.settled(pending.seq);
      } else if (verdict === 'retry') {
        retry.push(pending);
      } else {
        const problem = 'error' in result ? result.error : undefined;
        this.drop(
          [pending],
          new VigilError('rejected', `event "${pending.event.event}" refused (${result.status})${problem?.detail ? `: ${problem.detail}` : ''}`, {
            status: result.status,
            problem,
          }),
        );
      }
    });
    if (retry.length > 0) {
      this.retryLater(retry, new VigilError('http', `${retry.length} event(s) of a batch failed temporarily`), {
        answered: true,
        retryAfterMs: undefined,
      });
    }
  }

  /**
   * Puts events back at the front (keeping their order) and pauses sending; gives up on events out of attempts.
   * Only an answer counts as an attempt: a request that got none (offline, timeout) says nothing about the events.
   */
  private retryLater(batch: Pending[], error: VigilError, how: { answered: boolean; retryAfterMs: number | undefined }): void {
    const { maxAttempts, minRetryDelay, maxRetryDelay, random, clock } = this.options;
    if (how.answered) for (const p of batch) p.attempts++;
    const exhausted = batch.filter((p) => p.attempts >= maxAttempts);
    const again = batch.filter((p) => p.attempts < maxAttempts);
    if (exhausted.length > 0) {
      this.drop(
        exhausted,
        new VigilError('retries_exhausted', `gave up after ${maxAttempts} attempts: ${error.message}`, {
          status: error.status,
          problem: error.problem,
          cause: error,
        }),
      );
    }
    this.consecutiveFailures++;
    const policy = { baseDelayMs: minRetryDelay, multiplier: RETRY.multiplier, maxDelayMs: maxRetryDelay };
    const delay = retryDelay(this.consecutiveFailures, random(), how.retryAfterMs ?? null, policy);
    this.pause(clock.now() + delay);
    this.queue.unshift(...again);
  }

  private drop(batch: Pending[], error: VigilError): void {
    this.report(error.withDropped(batch.map((p) => p.event)));
    for (const p of batch) this.waiters.settled(p.seq);
  }

  private report(error: VigilError): void {
    reportError(this.options, error);
  }
}

function parseBatchResults(body: string, expected: number): BatchItemResult[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const results = (parsed as { results?: unknown } | null)?.results;
  if (!Array.isArray(results) || results.length !== expected) return undefined;
  return results.map((r: unknown): BatchItemResult => {
    const item = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    // An item without a status but with insights is a success; anything else unknown is resent
    // (safe, thanks to the idempotency key) rather than silently lost.
    const status = typeof item.status === 'number' ? item.status : 'insights' in item ? 200 : 500;
    return { ...item, status } as BatchItemResult;
  });
}
