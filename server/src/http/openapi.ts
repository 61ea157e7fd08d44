import { z } from 'zod';
import { insightsSchema } from '../pipeline/insights.js';
import { limits } from '../ingest/limits.js';
import { batchInputSchema, eventInputSchema, magicPropertiesSchema } from '../ingest/schema.js';
import { honeypotEventSchema } from '../ingest/honeypot.js';
import { jsOpenApi } from './js/openapi.js';
import { guarded, jsonBody, ok, problem, problemBodySchema, problems, ref, requestSchema, responseSchema, withBody } from './openapi-kit.js';
import { registryOpenApi } from './registry-openapi.js';
import { eventExportOpenApi } from './event-export-openapi.js';

/** The answer to a HoneypotEvent: the insights under `honey`, the behaviour counters also as `dynamic_features`. */
const honeypotAnswerSchema = z.object({
  honey: insightsSchema.extend({ dynamic_features: insightsSchema.shape.behaviors.describe('Same as behaviors.') }),
});

const eventErrors = problems([...withBody, ...guarded], {
  401: 'Missing, unknown or revoked key (with WWW-Authenticate: Bearer).',
  403: 'A key of the wrong kind.',
  429: 'Per-key rate limit exceeded; see Retry-After.',
  503: 'The event could not be stored; retry with the same event_id.',
});

const batchAnswer = {
  type: 'object',
  required: ['results'],
  additionalProperties: false,
  properties: {
    results: {
      type: 'array',
      items: {
        oneOf: [
          { type: 'object', required: ['status', 'insights'], additionalProperties: false, properties: { status: { const: 200 }, insights: ref('Insights') } },
          { type: 'object', required: ['status', 'error'], additionalProperties: false, properties: { status: { type: 'integer' }, error: ref('Problem') } },
        ],
      },
    },
  },
};

const text = (description: string, type: string) => ({ description, content: { [type]: { schema: { type: 'string' } } } });

/** OpenAPI 3.1 built from the same zod schemas that validate requests, so the two cannot disagree. */
export function buildOpenApi(): Record<string, unknown> {
  const registry = registryOpenApi();
  const js = jsOpenApi();
  const eventExport = eventExportOpenApi();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil',
      version: '0.1.0',
      description:
        'Device risk events: send a named event, get device id, handprint, risk tags, score and behaviors back. ' +
        `Limits: body ≤ ${limits.eventBodyBytes} bytes per event, ≤ ${limits.batchMaxEvents} events and ` +
        `${limits.batchBodyBytes} bytes per batch; properties nest ≤ ${limits.propertiesMaxDepth} levels with ≤ ${limits.propertiesMaxKeys} keys.`,
    },
    components: {
      securitySchemes: {
        writeKey: { type: 'http', scheme: 'bearer', description: 'A write key (vigil_wk_…), server-side only.' },
        clientKey: { type: 'http', scheme: 'bearer', description: 'A client key (vigil_ck_…), for the browser and Android libraries.' },
        honeypotApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'A write key sent the way the Honeypot SDKs send theirs (POST /events only); X-API-Secret is accepted and ignored.',
        },
        ...registry.securitySchemes,
        ...js.securitySchemes,
      },
      schemas: {
        Event: requestSchema(eventInputSchema),
        MagicProperties: requestSchema(magicPropertiesSchema),
        EventBatch: requestSchema(batchInputSchema),
        HoneypotEvent: requestSchema(honeypotEventSchema),
        HoneypotAnswer: responseSchema(honeypotAnswerSchema),
        Insights: responseSchema(insightsSchema),
        Problem: responseSchema(problemBodySchema),
        ...registry.schemas,
        ...js.schemas,
        ...eventExport.schemas,
      },
    },
    paths: {
      '/events': {
        post: {
          operationId: 'postEvent',
          summary: 'Send one event and get insights',
          description:
            'Stored before it is answered. A repeat with the same event_id (or Idempotency-Key) under the same key returns the first response. ' +
            'Also accepts the Honeypot SDKs\' body (HoneypotEvent, recognised by event_name) and key header (X-API-Key), and then answers HoneypotAnswer; ' +
            'orig_request_headers, orig_request_body and orig_request_params are never stored.',
          security: [{ writeKey: [] }, { honeypotApiKey: [] }],
          parameters: [
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: limits.idMax } },
          ],
          requestBody: jsonBody({ anyOf: [ref('Event'), ref('HoneypotEvent')] }),
          responses: {
            '200': {
              ...ok('Insights (HoneypotAnswer for a HoneypotEvent)', { anyOf: [ref('Insights'), ref('HoneypotAnswer')] }),
              links: Object.fromEntries(
                ['getDeviceRegistration', 'registerDevice', 'getDevice'].map((id) => [id, { operationId: id, parameters: { device_id: '$response.body#/device_id' } }]),
              ),
            },
            ...eventErrors,
          },
        },
      },
      '/events/batch': {
        post: {
          operationId: 'postEventBatch',
          summary: `Send 1 to ${limits.batchMaxEvents} events; one result per item, in order`,
          security: [{ writeKey: [] }, { clientKey: [] }],
          requestBody: jsonBody(ref('EventBatch')),
          responses: { '200': ok('Per-item results: {status: 200, insights} or {status: 4xx/5xx, error: Problem}', batchAnswer), ...eventErrors },
        },
      },
      ...js.paths,
      ...registry.paths,
      ...eventExport.paths,
      '/healthz': {
        get: { operationId: 'healthz', summary: 'Liveness', responses: { '200': ok('Alive', responseSchema(z.object({ status: z.literal('ok') }))) } },
      },
      '/readyz': {
        get: {
          operationId: 'readyz',
          summary: 'Readiness (database reachable)',
          responses: {
            '200': ok(
              'Ready',
              responseSchema(
                z.object({
                  status: z.literal('ready'),
                  database: z.enum(['pglite', 'postgres']),
                  replica: z
                    .object({ status: z.enum(['ready', 'lagging', 'unreachable']), lag_seconds: z.number().nullable() })
                    .optional()
                    .describe('With DATABASE_REPLICA_URL: the reporting replica, which never makes this answer 503'),
                }),
              ),
            ),
            '503': problem('Database unreachable, read-only (a standby) or its disk full; see Retry-After'),
          },
        },
      },
      '/metrics': { get: { operationId: 'metrics', summary: 'Prometheus metrics', responses: { '200': text('Text exposition format', 'text/plain') } } },
      '/openapi.json': { get: { operationId: 'openapi', summary: 'This document', responses: { '200': ok('OpenAPI 3.1', { type: 'object' }) } } },
      '/problems/{code}': {
        get: {
          operationId: 'problemType',
          summary: 'What a problem type means',
          parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': ok(
              'The problem type',
              responseSchema(z.object({ type: z.string(), status: z.number().int(), title: z.string() })),
            ),
            '400': problem('A path that is not valid percent-encoded UTF-8.'),
            '404': problem('No such problem type'),
          },
        },
      },
    },
  };
}
