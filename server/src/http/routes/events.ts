import type { FastifyInstance, FastifyRequest } from 'fastify';
import { faultKind, unavailableError } from '../../db/faults.js';
import { toProblem, validationError, VigilError, type Problem } from '../../errors.js';
import type { BrowserSupport } from '../../js/browser.js';
import type { Ingestor } from '../../ingest/ingestor.js';
import type { Insights } from '../../pipeline/insights.js';
import { limits } from '../../ingest/limits.js';
import { batchInputSchema } from '../../ingest/schema.js';
import { acceptEvent, header, requestContext, type AcceptOptions } from '../../ingest/accept.js';
import { fromHoneypot, honeypotAnswer, honeypotEventSchema, isHoneypotEvent } from '../../ingest/honeypot.js';
import { bodyDigest, deviceSignatureOf } from '../body-digest.js';
import { requireKey, type GuardDeps } from '../guards.js';
import { postBatchSchema, postEventLinks, postEventSchema } from './event-schemas.js';

export interface EventRouteDeps extends GuardDeps {
  ingestor: Ingestor;
  /** Links events carrying properties.browser_token to the browser's handprint and device. */
  browser: BrowserSupport;
  log: { error(obj: object, msg: string): void };
}

/**
 * | Route              | Auth      | Body                          | Answer                          |
 * |--------------------|-----------|-------------------------------|---------------------------------|
 * | POST /events       | write key | {event, identity?, properties?} | 200 insights                  |
 * | POST /events/batch | write or client key | {events: [event × 1..100]}    | 200 {results: [per item, in order]} |
 *
 * POST /events also takes the Honeypot SDKs' body ({event_name, user_id, event_properties, …}) and key header
 * (X-API-Key holding a write key) and then answers in their shape, {honey: insights}; see ingest/honeypot.ts.
 */
export function eventRoutes(app: FastifyInstance, deps: EventRouteDeps): void {
  // POST /events takes the write key; the Android library syncs its queue with a client key.
  const writeKeyOrApiKey = requireKey(deps, ['write'], { apiKeyHeader: true });
  const single = { schema: postEventSchema, links: postEventLinks, bodyLimit: limits.eventBodyBytes, preParsing: bodyDigest, preHandler: writeKeyOrApiKey };
  app.post('/events', single, async (request, reply) => {
    const ctx = context(request, header(request, 'idempotency-key'));
    if (isHoneypotEvent(request.body)) {
      const parsed = honeypotEventSchema.safeParse(request.body);
      if (!parsed.success) throw validationError(parsed.error, 'Invalid Honeypot event');
      return honeypotAnswer((await ingestOne(deps, fromHoneypot(parsed.data), ctx)).insights);
    }
    const outcome = await ingestOne(deps, request.body, ctx);
    // Serialised once, when it was stored (ingest/store.ts), and sent as it is.
    if (outcome.json !== undefined) return reply.type('application/json; charset=utf-8').send(outcome.json);
    return outcome.insights;
  });

  const batch = { schema: postBatchSchema, bodyLimit: limits.batchBodyBytes, preParsing: bodyDigest, preHandler: requireKey(deps, ['write', 'client']) };
  app.post('/events/batch', batch, async (request) => {
    const parsed = batchInputSchema.safeParse(request.body);
    if (!parsed.success) throw validationError(parsed.error, 'Invalid batch');
    const ctx = { ...context(request, undefined), ...(parsed.data.sent_at !== undefined ? { sentAt: parsed.data.sent_at } : {}) };
    let unavailable: VigilError | undefined;
    const results = await Promise.all(
      parsed.data.events.map(async (item, i): Promise<BatchResult> => {
        try {
          return { status: 200, insights: (await ingestOne(deps, item, ctx, { prefix: `events.${i}`, batchItem: true })).insights };
        } catch (error) {
          const fault = unavailableError(error);
          if (fault && faultKind(error)) unavailable = fault;
          const failure = error instanceof VigilError ? error : (fault ?? new VigilError('internal', 'An internal error occurred'));
          return { status: failure.status, error: toProblem(failure) };
        }
      }),
    );
    // The database failing is not a property of one event: the whole batch is answered 503 with Retry-After and
    // retried as a whole (events already stored are answered from their event_id, not stored twice). Any other
    // failure to store stays the one item's 503.
    if (unavailable) throw unavailable;
    return { results };
  });
}

type BatchResult = { status: 200; insights: Insights } | { status: number; error: Problem };

function context(request: FastifyRequest, idempotencyKey: string | undefined) {
  const ctx = requestContext(request, { keyId: request.apiKey!.id, keyKind: request.apiKey!.kind, idempotencyKey, forwarding: true });
  const signature = deviceSignatureOf(request);
  return signature ? { ...ctx, deviceSignature: signature } : ctx;
}

/** A backend's event: a properties.browser_token links it to that browser's handprint and device. */
const ingestOne = (deps: EventRouteDeps, body: unknown, ctx: ReturnType<typeof context>, options: AcceptOptions = {}) =>
  acceptEvent(body, ctx, deps, { ...options, link: (event) => deps.browser.linkBackendEvent(event) });
