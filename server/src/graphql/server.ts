import { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../config/env.js';
import { requireSupervisor, type SupervisorGuardDeps } from '../auth/supervisor-guard.js';
import type { EventFeed } from '../live/event-feed.js';
import { RowEstimates } from '../reporting/estimates.js';
import { ConcurrencyLimit } from './concurrency.js';
import { createContext, type GraphqlContext, type GraphqlServices } from './context.js';
import { MAX_COST } from './cost.js';
import { costLimit } from './cost-limit.js';
import { formatError, logInternalErrors, unavailableAnswers } from './errors.js';
import { liveRoutes } from './live-server.js';
import { storableArguments } from './text-args.js';
import { MAX_DEPTH, MAX_NODES, MAX_TOKENS, selectionLimits } from './limits.js';
import { vigilSchema } from './schema.js';
import { graphqlRouteSchema } from './route-schema.js';

export type GraphqlRouteDeps = GraphqlServices & SupervisorGuardDeps & { config: { env: Env } };

/**
 * GraphQL at /graphql (GET and POST) on the same Fastify server. Credentials are checked before GraphQL runs,
 * exactly as for /api: keys and unknown tokens never reach a resolver. Role checks happen per field.
 */
export async function graphqlRoutes(app: FastifyInstance, deps: GraphqlRouteDeps, feed: EventFeed): Promise<void> {
  const env = deps.config.env;
  const schema = await vigilSchema();
  // The embedded database cannot cancel a running statement, so reads there are bounded by rows instead of time.
  const maxScanRows = deps.database.driver === 'pglite' ? env.VIGIL_REPORTING_MAX_SCAN_ROWS : null;
  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    formatError,
    parseOptions: { maxTokens: MAX_TOKENS },
    validationRules: [selectionLimits({ maxDepth: MAX_DEPTH, maxNodes: MAX_NODES })],
    // Not fastifyApolloDrainPlugin: it closes Fastify from apollo.stop(), and Fastify's onClose stops Apollo.
    plugins: [
      storableArguments(),
      costLimit({
        schema,
        estimates: new RowEstimates(deps.database.reporting),
        maxCost: MAX_COST,
        maxScanRows,
        expensiveCost: env.VIGIL_GRAPHQL_EXPENSIVE_COST,
        concurrency: new ConcurrencyLimit(env.VIGIL_GRAPHQL_MAX_CONCURRENT),
      }),
      logInternalErrors(app),
      unavailableAnswers(deps.database.health),
    ],
    introspection: env.VIGIL_GRAPHQL_INTROSPECTION,
    includeStacktraceInErrorResponses: false,
    // `vigil serve` owns SIGINT/SIGTERM and shuts down in order; Apollo's own handlers would race it.
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  const route = {
    url: '/graphql',
    preHandler: requireSupervisor(deps, 'read'),
    handler: fastifyApolloHandler(apollo, { context: async (request) => createContext(request.principal!, deps, maxScanRows, env.VIGIL_REPORTING_SETTLE_MS) }),
  };
  // /openapi.json shows POST only: one operation, with the schema in server/schema.graphql.
  app.route({ ...route, method: 'POST', schema: graphqlRouteSchema });
  app.route({ ...route, method: 'GET', schema: { hide: true } });
  // Subscriptions: the same path, upgraded to a WebSocket.
  liveRoutes(app, { schema, feed, services: deps, guard: deps, recheckMs: env.VIGIL_LIVE_RECHECK_SECONDS * 1000, maxScanRows });
}
