import type { BatchSender } from './batch-sender.js';
import { describeCause } from './describe.js';
import { classifyResponse } from './classify.js';
import { VigilError } from './errors.js';
import { requestHeaders } from './headers.js';
import { failOpenInsights } from './fail-open.js';
import { Insights, isInsightsData } from './insights.js';
import { reportError } from './report.js';
import type { ResolvedCoreOptions } from './options.js';
import type { PreparedEvent } from './event.js';
import type { HttpResponse } from './transport.js';

/**
 * The request/response path: POST /events with a deadline. It never rejects; when the service
 * cannot answer it resolves with the fail-open result and, when the failure was temporary, hands
 * the event to the batch queue so it is still recorded (same idempotency key, so never twice).
 */
export class SingleSender {
  constructor(
    private readonly options: ResolvedCoreOptions,
    private readonly batches: BatchSender,
  ) {}

  send(prepared: PreparedEvent, timeoutMs: number): Promise<Insights> {
    const { clock } = this.options;
    if (this.batches.isClosed) {
      return Promise.resolve(this.failOpen(prepared, new VigilError('closed', 'the Vigil client is closed'), false));
    }
    if (clock.now() < this.batches.pausedUntilMs) {
      // The service asked us to wait; asking again now would only lengthen the wait.
      const error = new VigilError('rate_limited', 'Vigil asked to pause sending (Retry-After or backoff); event queued');
      return Promise.resolve(this.failOpen(prepared, error, true));
    }

    return new Promise<Insights>((resolve) => {
      let settled = false;
      const controller = new AbortController();
      const finish = (outcome: () => Insights): void => {
        if (settled) return;
        settled = true;
        cancelDeadline();
        let result: Insights;
        try {
          result = outcome();
        } catch (cause) {
          result = this.failOpen(prepared, new VigilError('invalid_response', describeCause(cause), { cause }), false);
        }
        resolve(result);
      };
      // The deadline is the core's, not the transport's, so a transport that ignores the abort
      // signal still cannot make trackAsync late.
      const cancelDeadline = clock.setTimeout(() => {
        finish(() => this.failOpen(prepared, new VigilError('timeout', `POST /events took longer than ${timeoutMs} ms`), true));
        controller.abort();
      }, timeoutMs);

      let request: Promise<HttpResponse>;
      try {
        request = this.options.transport.send({
          url: `${this.options.endpoint}/events`,
          method: 'POST',
          headers: requestHeaders(this.options, { 'idempotency-key': prepared.event.properties.event_id }),
          // The send time by this process's clock: the service corrects the timestamp by the clock's error.
          body: JSON.stringify({ ...prepared.event, sent_at: new Date(clock.now()).toISOString() }),
          signal: controller.signal,
        });
      } catch (cause) {
        request = Promise.reject(cause);
      }
      request.then(
        (response) => finish(() => this.onResponse(prepared, response)),
        (cause: unknown) => finish(() => this.failOpen(prepared, new VigilError('network', `POST /events failed: ${describeCause(cause)}`, { cause }), true)),
      );
    });
  }

  private onResponse(prepared: PreparedEvent, response: HttpResponse): Insights {
    const verdict = classifyResponse(response, this.options.clock.now(), this.options.maxRetryAfter);
    switch (verdict.kind) {
      case 'success': {
        let body: unknown;
        try {
          body = JSON.parse(response.body);
        } catch {
          body = undefined;
        }
        if (!isInsightsData(body)) {
          // The service answered 2xx, so the event is stored; only the answer is unusable.
          return this.failOpen(prepared, new VigilError('invalid_response', 'POST /events answered 2xx without insights'), false);
        }
        return new Insights(body);
      }
      case 'retry':
        if (verdict.retryAfterMs !== undefined) {
          this.batches.pause(this.options.clock.now() + verdict.retryAfterMs);
        }
        return this.failOpen(prepared, verdict.error, true);
      case 'shrink':
      case 'drop':
        return this.failOpen(prepared, verdict.error.withDropped([prepared.event]), false);
    }
  }

  private failOpen(prepared: PreparedEvent, error: VigilError, requeue: boolean): Insights {
    if (requeue) this.batches.enqueue(prepared.event, prepared.bytes);
    reportError(this.options, error);
    return failOpenInsights(this.options, error, prepared.event);
  }
}
