import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/handle.js';
import { faultError } from '../../db/faults.js';
import { errorCatalog, problemType, VigilError, type ErrorCode } from '../../errors.js';
import type { Metrics } from '../metrics.js';
import { buildOpenApi } from '../openapi.js';

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
 * | GET /openapi.json   | none | OpenAPI 3.1, generated from the request schemas |
 * | GET /problems/{code}| none | what a problem type means                      |
 */
export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  // A known fault answers at once (the health probe clears it); otherwise a ping bounded in time, so a hung
  // database makes this 503 rather than a request that never ends.
  app.get('/readyz', async () => {
    const health = deps.database.health;
    if (health.fault === undefined) await health.check();
    const fault = health.fault;
    if (fault !== undefined) throw faultError(fault, `The database is not ready (${fault.replace('_', ' ')})`);
    // The replica only serves reports: its state is told, never a reason to take this process out of rotation.
    const replica = deps.database.replica?.state;
    if (!replica) return { status: 'ready', database: deps.database.driver };
    return { status: 'ready', database: deps.database.driver, replica: { status: replica.status, lag_seconds: replica.lagSeconds } };
  });

  app.get('/metrics', async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });

  const openapi = buildOpenApi();
  app.get('/openapi.json', async () => openapi);

  app.get<{ Params: { code: string } }>('/problems/:code', async (request) => {
    const entry = (errorCatalog as Record<string, { status: number; title: string }>)[request.params.code];
    if (!entry) throw new VigilError('not_found', `No problem type ${request.params.code}`);
    return { type: problemType(request.params.code as ErrorCode), ...entry };
  });
}
