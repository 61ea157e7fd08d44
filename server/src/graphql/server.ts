import { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { requireSupervisor, type SupervisorGuardDeps } from '../http/supervisor-guard.js';
import { createContext, type GraphqlContext, type GraphqlServices } from './context.js';
import { formatError, logInternalErrors, unavailableAnswers } from './errors.js';
import { complexityLimit, depthLimit, MAX_COMPLEXITY, MAX_DEPTH } from './limits.js';
import { vigilSchema } from './schema.js';

export type GraphqlRouteDeps = GraphqlServices & SupervisorGuardDeps;

/**
 * GraphQL at /graphql (GET and POST) on the same Fastify server. Credentials are checked before GraphQL runs,
 * exactly as for /api: keys and unknown tokens never reach a resolver. Role checks happen per field.
 */
export async function graphqlRoutes(app: FastifyInstance, deps: GraphqlRouteDeps): Promise<void> {
  const schema = await vigilSchema();
  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    formatError,
    validationRules: [depthLimit(MAX_DEPTH)],
    // Not fastifyApolloDrainPlugin: it closes Fastify from apollo.stop(), and Fastify's onClose stops Apollo.
    plugins: [complexityLimit(schema, MAX_COMPLEXITY), logInternalErrors(app), unavailableAnswers(deps.database.health)],
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // `vigil serve` owns SIGINT/SIGTERM and shuts down in order; Apollo's own handlers would race it.
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    preHandler: requireSupervisor(deps, 'read'),
    handler: fastifyApolloHandler(apollo, { context: async (request) => createContext(request.principal!, deps) }),
  });
}
