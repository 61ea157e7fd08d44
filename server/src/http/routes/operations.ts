import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/handle.js';
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
 * | GET /healthz        | none | 200 while the process is alive                 |
 * | GET /readyz         | none | 200 when the database answers, 503 otherwise   |
 * | GET /metrics        | none | Prometheus text format                         |
 * | GET /openapi.json   | none | OpenAPI 3.1, generated from the request schemas |
 * | GET /problems/{code}| none | what a problem type means                      |
 */
export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async () => {
    try {
      await deps.database.ping();
    } catch {
      throw new VigilError('unavailable', 'The database is not reachable');
    }
    return { status: 'ready', database: deps.database.driver };
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
