import { z } from 'zod';
import { signatureHeaderFields } from '../../binding/schemas.js';
import { honeypotEventSchema } from '../../ingest/honeypot.js';
import { insightsSchema } from '../../pipeline/insights.js';
import { limits } from '../../ingest/limits.js';
import { batchInputSchema, eventInputSchema } from '../../ingest/schema.js';
import { checkedByHandler, component, guarded, json, problemBodySchema, problems, securedBy, withBody } from '../route-schemas.js';

/**
 * The schemas of POST /events and /events/batch. Bodies are validated by the handler: it tells a Honeypot body from
 * ours, and checks batch items one by one so each gets its own answer.
 */

/** The answer to a HoneypotEvent: the insights under `honey`, the behaviour counters also as `dynamic_features`. */
const honeypotAnswerSchema = component(
  'HoneypotAnswer',
  z.object({ honey: insightsSchema.extend({ dynamic_features: insightsSchema.shape.behaviors.describe('Same as behaviors.') }) }),
);

const eventErrors = problems([...withBody, ...guarded], {
  401: 'Missing, unknown or revoked key (with WWW-Authenticate: Bearer).',
  403: 'A key of the wrong kind.',
  429: 'Per-key rate limit exceeded; see Retry-After.',
  503: 'The event could not be stored; retry with the same event_id.',
});

const batchAnswer = z.strictObject({
  results: z.array(
    z.union([z.strictObject({ status: z.literal(200), insights: insightsSchema }), z.strictObject({ status: z.number().int(), error: problemBodySchema })]),
  ),
});

export const postEventSchema = {
  operationId: 'postEvent',
  summary: 'Send one event and get insights',
  description:
    'Stored before it is answered. A repeat with the same event_id (or Idempotency-Key) under the same key returns the first response. ' +
    "Also accepts the Honeypot SDKs' body (HoneypotEvent, recognised by event_name) and key header (X-API-Key), and then answers HoneypotAnswer; " +
    'orig_request_headers, orig_request_body and orig_request_params are never stored.',
  security: securedBy('writeKey', 'honeypotApiKey'),
  headers: checkedByHandler(z.object({ 'Idempotency-Key': z.string().max(limits.idMax).optional(), ...signatureHeaderFields })),
  body: checkedByHandler(z.union([eventInputSchema, honeypotEventSchema])),
  response: { 200: json('Insights (HoneypotAnswer for a HoneypotEvent)', z.union([insightsSchema, honeypotAnswerSchema])), ...eventErrors },
};

export const postEventLinks = {
  200: Object.fromEntries(
    ['getDeviceRegistration', 'registerDevice', 'getDevice'].map((id) => [id, { operationId: id, parameters: { device_id: '$response.body#/device_id' } }]),
  ),
};

export const postBatchSchema = {
  operationId: 'postEventBatch',
  summary: `Send 1 to ${limits.batchMaxEvents} events; one result per item, in order`,
  description:
    'The body may be gzipped (Content-Encoding: gzip, as the Android library sends it); the size limit applies to the decompressed body (413 past it, 400 for a body that is not gzip, 415 for another encoding).',
  security: securedBy('writeKey', 'clientKey'),
  headers: checkedByHandler(z.object(signatureHeaderFields)),
  body: checkedByHandler(batchInputSchema),
  response: { 200: json('Per-item results: {status: 200, insights} or {status: 4xx/5xx, error: Problem}', batchAnswer), ...eventErrors },
};
