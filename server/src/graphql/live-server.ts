import type { FastifyInstance } from 'fastify';
import { GraphQLError, Kind, parse, specifiedRules, validate, type ExecutionArgs, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseBearer } from '../auth/bearer.js';
import type { Principal } from '../auth/supervisor-store.js';
import { authenticateBearer, requirePermission, type SupervisorGuardDeps } from '../auth/supervisor-guard.js';
import { toVigilError } from '../http/problem.js';
import type { EventFeed } from '../live/event-feed.js';
import { createContext, type GraphqlServices } from './context.js';
import { formatError } from './errors.js';
import { MAX_DEPTH, MAX_NODES, MAX_TOKENS, selectionLimits } from './limits.js';

/**
 * Close codes of a live connection beyond graphql-ws's own (4400 bad request, 4403 forbidden, 4408 no
 * connection_init in time, 4500 internal…). Documented in the README.
 */
export const LiveCloseCode = {
  /** Missing, unknown or revoked credentials at connection. */
  Unauthorized: 4401,
  /** A key instead of a supervisor credential, or credentials revoked, expired or disabled while connected. */
  Forbidden: 4403,
  /** Sign-in rate limit of the credential. */
  RateLimited: 4429,
  /** The subscriber fell more than VIGIL_LIVE_MAX_QUEUE events behind. */
  SlowConsumer: 4029,
  /** The server is shutting down. */
  GoingAway: 1001,
} as const;

export interface LiveServerDeps {
  schema: GraphQLSchema;
  feed: EventFeed;
  services: GraphqlServices;
  guard: SupervisorGuardDeps;
  /** How often a connection's credential is checked again, ms. */
  recheckMs: number;
  maxScanRows: number | null;
}

type Extra = {
  principal?: Principal;
  recheck?: NodeJS.Timeout;
};

// Close reasons are limited to 123 bytes by the WebSocket protocol.
const reason = (text: string) =>
  Buffer.byteLength(text) <= 123
    ? text
    : `${Buffer.from(text)
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD+$/, '')}…`;

/**
 * GraphQL subscriptions over graphql-ws (subprotocol graphql-transport-ws) on the HTTP server's /graphql path.
 * Credentials are the same as for queries, sent as connectionParams.authorization, checked at connection_init and
 * again every `recheckMs` (a revoked token or session, or a disabled account, ends the connection). Only
 * subscriptions run here: queries and mutations go over HTTP, where the cost model applies.
 */
export function liveRoutes(app: FastifyInstance, deps: LiveServerDeps): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 });
  app.server.on('upgrade', (request, socket, head) => {
    if ((request.url ?? '').split('?')[0] !== '/graphql') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });

  const close = (socket: WebSocket, code: number, text: string) => socket.close(code, reason(text));
  const server = useServer<Record<string, unknown>, Extra>(
    {
      schema: deps.schema,
      onConnect: async (ctx) => {
        const socket = ctx.extra.socket;
        const authorization = ctx.connectionParams?.authorization;
        try {
          const principal = await authenticateBearer(deps.guard, typeof authorization === 'string' ? authorization : undefined);
          requirePermission(principal, 'read');
          ctx.extra.principal = principal;
        } catch (error) {
          const { error: refusal } = toVigilError(error);
          const code =
            refusal.code === 'forbidden' ? LiveCloseCode.Forbidden : refusal.code === 'rate_limited' ? LiveCloseCode.RateLimited : LiveCloseCode.Unauthorized;
          // Closed here with our code; graphql-ws's own 4403 that follows `false` finds the socket closing.
          close(socket, code, refusal.message);
          return false;
        }
        const presented = parseBearer(authorization as string)!;
        ctx.extra.recheck = setInterval(() => {
          deps.guard.supervisors.authenticate(presented).then(
            (check) => {
              if (!check.ok) close(socket, LiveCloseCode.Forbidden, `Credentials no longer valid (${check.reason}); sign in again`);
            },
            // A database fault is not a revocation: the next check decides.
            () => {},
          );
        }, deps.recheckMs);
        ctx.extra.recheck.unref();
        return true;
      },
      onClose: (ctx) => clearInterval(ctx.extra.recheck),
      onSubscribe: (ctx, _id, payload) => {
        let document;
        try {
          document = parse(payload.query, { maxTokens: MAX_TOKENS });
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
        }
        const errors = validate(deps.schema, document, [...specifiedRules, selectionLimits({ maxDepth: MAX_DEPTH, maxNodes: MAX_NODES })]);
        if (errors.length > 0) return errors;
        const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
        const operation = payload.operationName ? operations.find((o) => o.name?.value === payload.operationName) : operations[0];
        if (operation?.operation !== 'subscription') {
          return [
            new GraphQLError('Only subscriptions run over graphql-ws; send queries and mutations to POST /graphql', {
              extensions: { code: 'validation_failed' },
            }),
          ];
        }
        const socket = ctx.extra.socket;
        const args: ExecutionArgs = {
          schema: deps.schema,
          document,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue: {
            ...createContext(ctx.extra.principal!, deps.services, deps.maxScanRows),
            live: { feed: deps.feed, slow: (message: string) => close(socket, LiveCloseCode.SlowConsumer, message) },
          },
        };
        return args;
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e.toJSON(), e)),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) } : undefined),
    },
    wss,
    12_000,
  );
  app.addHook('preClose', async () => {
    for (const socket of wss.clients) close(socket, LiveCloseCode.GoingAway, 'Server shutting down');
    await server.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}
