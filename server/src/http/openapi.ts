import { z } from 'zod';
import { errorCatalog } from '../errors.js';
import { insightsSchema } from '../ingest/insights.js';
import { limits } from '../ingest/limits.js';
import { batchInputSchema, eventInputSchema, magicPropertiesSchema } from '../ingest/schema.js';
import { jsOpenApiPaths } from './js/openapi.js';
import { registryOpenApi } from './registry-openapi.js';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', description: 'URI reference /problems/{code}' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(errorCatalog) },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const errorResponses = {
  '400': problem('Invalid JSON or fields; `errors` lists each {path, message}.'),
  '401': problem('Missing, unknown or revoked key (with WWW-Authenticate: Bearer).'),
  '403': problem('A key of the wrong kind.'),
  '413': problem(`Body larger than allowed.`),
  '415': problem('Content-Type is not application/json.'),
  '429': problem('Per-key rate limit exceeded; see Retry-After.'),
  '503': problem('The database is unavailable (see Retry-After); retry with the same event_id, it counts once.'),
};

/** OpenAPI 3.1 built from the same zod schemas that validate requests, so the two cannot disagree. */
export function buildOpenApi(): Record<string, unknown> {
  const registry = registryOpenApi();
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
        ...registry.securitySchemes,
      },
      schemas: {
        Event: json(eventInputSchema),
        MagicProperties: json(magicPropertiesSchema),
        EventBatch: json(batchInputSchema),
        Insights: z.toJSONSchema(insightsSchema, { io: 'output', unrepresentable: 'any' }),
        Problem: problemSchema,
        ...registry.schemas,
      },
    },
    paths: {
      '/events': {
        post: {
          summary: 'Send one event and get insights',
          description: 'Stored before it is answered. A repeat with the same event_id (or Idempotency-Key) under the same key returns the first response.',
          security: [{ writeKey: [] }],
          parameters: [
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: limits.idMax } },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } },
          responses: {
            '200': { description: 'Insights', content: { 'application/json': { schema: { $ref: '#/components/schemas/Insights' } } } },
            ...errorResponses,
          },
        },
      },
      '/events/batch': {
        post: {
          summary: `Send 1 to ${limits.batchMaxEvents} events; one result per item, in order`,
          security: [{ writeKey: [] }, { clientKey: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/EventBatch' } } } },
          responses: {
            '200': {
              description: 'Per-item results: {status: 200, insights} or {status: 4xx/5xx, error: Problem}',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      results: {
                        type: 'array',
                        items: {
                          type: 'object',
                          properties: {
                            status: { type: 'integer' },
                            insights: { $ref: '#/components/schemas/Insights' },
                            error: { $ref: '#/components/schemas/Problem' },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
            ...errorResponses,
          },
        },
      },
      ...jsOpenApiPaths(),
      ...registry.paths,
      '/healthz': { get: { summary: 'Liveness', responses: { '200': { description: 'Alive' } } } },
      '/readyz': { get: { summary: 'Readiness (database reachable)', responses: { '200': { description: 'Ready' }, '503': problem('Database unreachable, read-only or its disk full (see Retry-After)') } } },
      '/metrics': { get: { summary: 'Prometheus metrics', responses: { '200': { description: 'Text exposition format' } } } },
    },
  };
}
