import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/handle.js';
import { faultError } from '../../db/faults.js';
import { errorCatalog, problemType, VigilError, type ErrorCode } from '../../errors.js';
import type { Metrics } from '../metrics.js';
import { openApiDocument } from '../openapi.js';
import { checkedByHandler, json, problem, textAnswer } from '../route-schemas.js';

export interface OperationRouteDeps {
  database: DatabaseHandle;
  metrics: Metrics;
}

/**
 * | Route               | Auth | Answer                                         |
 * |---------------------|------|------------------------------------------------|
 * | GET /healthz        | none | 200 while the process is alive (never asks the database) |
 * | GET /readyz         | none | 200 when the database answers, 503 + Retry-After otherwise (the replica's state only in the body) |
 * | GET /metrics        | none | Prometheus text format                         |
 * | GET /openapi.json   | none | OpenAPI 3.1, generated from the route schemas  |
 * | GET /problems/{code}| none | what a problem type means                      |
 */
export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  const healthz = { operationId: 'healthz', summary: 'Liveness', response: { 200: json('Alive', z.object({ status: z.literal('ok') })) } };
  app.get('/healthz', { schema: healthz }, async () => ({ status: 'ok' }));

  // A known fault answers at once (the health probe clears it); otherwise a ping bounded in time, so a hung
  // database makes this 503 rather than a request that never ends.
  app.get('/readyz', { schema: readyz }, async () => {
    const health = deps.database.health;
    if (health.fault === undefined) await health.check();
    const fault = health.fault;
    if (fault !== undefined) throw faultError(fault, `The database is not ready (${fault.replace('_', ' ')})`);
    // The replica only serves reports: its state is told, never a reason to take this process out of rotation.
    const replica = deps.database.replica?.state;
    if (!replica) return { status: 'ready', database: deps.database.driver };
    return { status: 'ready', database: deps.database.driver, replica: { status: replica.status, lag_seconds: replica.lagSeconds } };
  });

  const metrics = { operationId: 'metrics', summary: 'Prometheus metrics', response: { 200: textAnswer('Text exposition format', 'text/plain') } };
  app.get('/metrics', { schema: metrics }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });

  const openapi = { operationId: 'openapi', summary: 'This document', response: { 200: json('OpenAPI 3.1', z.record(z.string(), z.unknown())) } };
  app.get('/openapi.json', { schema: openapi }, async () => openApiDocument(app));

  app.get<{ Params: { code: string } }>('/problems/:code', { schema: problemTypeRoute }, async (request) => {
    // Own keys only: `__proto__` or `constructor` would otherwise find Object's and answer a 200 without a status.
    const code = request.params.code;
    const entry = Object.hasOwn(errorCatalog, code) ? (errorCatalog as Record<string, { status: number; title: string }>)[code] : undefined;
    if (!entry) throw new VigilError('not_found', `No problem type ${request.params.code}`);
    return { type: problemType(request.params.code as ErrorCode), ...entry };
  });
}

const readyz = {
  operationId: 'readyz',
  summary: 'Readiness (database reachable)',
  response: {
    200: json(
      'Ready',
      z.object({
        status: z.literal('ready'),
        database: z.enum(['pglite', 'postgres']),
        replica: z
          .object({ status: z.enum(['ready', 'lagging', 'unreachable']), lag_seconds: z.number().nullable() })
          .optional()
          .describe('With DATABASE_REPLICA_URL: the reporting replica, which never makes this answer 503'),
      }),
    ),
    503: problem('Database unreachable, read-only (a standby) or its disk full; see Retry-After'),
  },
};

const problemTypeRoute = {
  operationId: 'problemType',
  summary: 'What a problem type means',
  params: checkedByHandler(z.object({ code: z.string() })),
  response: {
    200: json('The problem type', z.object({ type: z.string(), status: z.number().int(), title: z.string() })),
    400: problem('A path that is not valid percent-encoded UTF-8.'),
    404: problem('No such problem type'),
  },
};
