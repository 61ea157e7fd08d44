import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type HTTPMethods } from 'fastify';
import type { Config } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import type { DatabaseHealth } from '../db/health.js';
import { VigilError } from '../errors.js';
import { limits } from '../ingest/limits.js';
import { answerClientError } from './client-errors.js';
import { gunzipRequestBodies } from './gzip.js';
import type { Metrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { sendProblem, toVigilError } from './problem.js';
import { serializerCompiler, validatorCompiler } from './route-schemas.js';

/** What the HTTP server itself needs; the routes are mounted by the caller (vigil.ts wires them). */
export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  metrics: Metrics;
  logger: FastifyServerOptions['logger'];
}

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** One answer for route and framework errors; a database fault also marks the database not ready (/readyz). */
const errorAnswerer = (health: DatabaseHealth) =>
  function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    health.observe(error);
    const { error: vigilError, internal } = toVigilError(error);
    if (internal) request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, vigilError);
  };

/**
 * The Fastify server with Vigil's error answers, metrics and limits. `mount` registers the routes; afterwards a
 * known path called with another method is answered 405 (so it must see every route first).
 */
export async function buildApp(options: AppOptions, mount: (app: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
  const trusted = options.config.env.VIGIL_TRUSTED_PROXIES;
  const timeoutMs = options.config.env.VIGIL_REQUEST_TIMEOUT_SECONDS * 1000;
  const answerError = errorAnswerer(options.database.health);
  const app = Fastify({
    logger: options.logger,
    // X-Forwarded-For is believed only from the operator's proxies; otherwise request.ip is the socket's address.
    trustProxy: trusted.length > 0 ? trusted : false,
    bodyLimit: limits.batchBodyBytes,
    // Device ids in paths may be as long as in events (128); longer ones get a 400 from validation, not a 414.
    routerOptions: { maxParamLength: 512 },
    // Fastify turns Node's request timeout off; without it a client dripping its body holds a connection for ever.
    requestTimeout: timeoutMs,
    // Node checks the timeouts on an interval (30 s by default); a finer one keeps the cut close to the setting.
    http: { requestTimeout: timeoutMs, headersTimeout: timeoutMs, connectionsCheckingInterval: Math.min(1000, timeoutMs) },
    clientErrorHandler: answerClientError,
    // A URL Fastify cannot decode or route (bad percent-encoding, a path segment over maxParamLength).
    frameworkErrors: answerError,
  });
  app.decorateRequest('apiKey', null);
  app.decorateRequest('principal', null);
  // Only JSON bodies are accepted; without this, Fastify would hand text/plain to handlers as a string.
  app.removeContentTypeParser('text/plain');
  // Bodies may come gzipped (Content-Encoding: gzip), as the Android library sends its batches.
  gunzipRequestBodies(app, limits.batchBodyBytes);

  app.setErrorHandler(answerError);
  // Routes declare zod schemas: requests are validated with them and /openapi.json is generated from them.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenApi(app);
  app.setNotFoundHandler((request, reply) => sendProblem(reply, new VigilError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`)));

  app.addHook('onResponse', async (request, reply) => {
    options.metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });

  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = routes.get(route.url) ?? new Set<string>();
    methods.forEach((m) => known.add(m));
    routes.set(route.url, known);
  });

  await mount(app);

  // A known path with the wrong method is 405 with Allow, not 404.
  for (const [url, methods] of [...routes]) {
    const missing = METHODS.filter((m) => !methods.has(m));
    if (missing.length === 0) continue;
    const allow = [...methods].filter((m) => m !== 'HEAD').join(', ');
    app.route({
      method: missing,
      url,
      handler: async () => {
        throw new VigilError('method_not_allowed', `Use ${allow} on ${url}`, { headers: { Allow: allow } });
      },
    });
  }
  return app;
}
