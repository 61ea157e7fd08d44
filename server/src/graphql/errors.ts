import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unavailableError } from '../db/faults.js';
import type { DatabaseHealth } from '../db/health.js';
import { databaseRefusedText } from '../db/safe-text.js';
import { errorCatalog, problemType, VigilError, vigilCause, type ErrorCode } from '../errors.js';

// Apollo's own codes for requests that are not valid GraphQL, mapped onto the one catalog.
const apolloCodes: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'validation_failed',
  GRAPHQL_VALIDATION_FAILED: 'validation_failed',
  BAD_USER_INPUT: 'validation_failed',
  BAD_REQUEST: 'validation_failed',
  OPERATION_RESOLUTION_FAILURE: 'validation_failed',
  PERSISTED_QUERY_NOT_FOUND: 'validation_failed',
  PERSISTED_QUERY_NOT_SUPPORTED: 'validation_failed',
};

/**
 * The error a GraphQL error stands for. Apollo wraps what a plugin throws (e.g. the cost limit's row estimates
 * failing while the database is down) as a GraphQLError with `originalError` and no `path`, which
 * `unwrapResolverError` leaves wrapped; without this such a fault would be answered `internal`.
 */
function originalOf(error: unknown): unknown {
  const unwrapped = unwrapResolverError(error);
  if (unwrapped instanceof GraphQLError && unwrapped.originalError && !(unwrapped.originalError instanceof GraphQLError)) {
    return unwrapped.originalError;
  }
  return unwrapped;
}

/**
 * Every GraphQL error carries `extensions.code` from the same catalog as REST problems (plus `type` and
 * `status`), so a client handles `device_not_registered` the same way on both. Unknown failures are `internal`
 * and show no detail.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const unwrapped = originalOf(error);
  const original = vigilCause(unwrapped) ?? unwrapped;
  const base = {
    message: formatted.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  const extensionsOf = (code: ErrorCode, errors?: unknown) => ({
    code,
    type: problemType(code),
    status: errorCatalog[code].status,
    ...(errors ? { errors } : {}),
  });
  if (original instanceof VigilError) {
    return { ...base, message: original.message, extensions: extensionsOf(original.code, original.errors) };
  }
  // A validation rule's own code (a limit) survives Apollo's GRAPHQL_VALIDATION_FAILED wrapper.
  const inner = error instanceof GraphQLError && error.originalError instanceof GraphQLError ? error.originalError.extensions?.code : undefined;
  if (typeof inner === 'string' && inner in errorCatalog) return { ...base, extensions: extensionsOf(inner as ErrorCode) };
  const unavailable = unavailableError(original);
  if (unavailable) return { ...base, message: unavailable.message, extensions: extensionsOf('unavailable') };
  if (databaseRefusedText(original)) {
    return { ...base, message: 'The input contains text the database cannot store', extensions: extensionsOf('validation_failed') };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && code in errorCatalog) return { ...base, extensions: extensionsOf(code as ErrorCode, formatted.extensions?.errors) };
  if (typeof code === 'string' && apolloCodes[code]) return { ...base, extensions: extensionsOf(apolloCodes[code]!) };
  return {
    message: 'An internal error occurred; it has been logged.',
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: extensionsOf('internal'),
  };
}

/** Internal failures are answered without detail (formatError), so they are logged here with it. */
export function logInternalErrors(app: FastifyInstance): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors }) {
          for (const error of errors) {
            const original = originalOf(error);
            const expected =
              vigilCause(original) !== undefined ||
              (original instanceof GraphQLError && original.extensions?.code !== undefined) ||
              unavailableError(original) !== undefined;
            if (!expected) app.log.error({ err: original }, 'GraphQL operation failed');
          }
        },
      };
    },
  };
}

/**
 * An operation that met a database fault is answered like REST: HTTP 503 with Retry-After (the body still carries
 * `extensions.code: "unavailable"`), and the fault is reported to the database's health.
 */
export function unavailableAnswers(health: DatabaseHealth): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ errors, response }) {
          const fault = (errors ?? []).map(originalOf).find((e) => unavailableError(e));
          if (!fault) return;
          health.observe(fault);
          const unavailable = unavailableError(fault)!;
          response.http.status = unavailable.status;
          for (const [name, value] of Object.entries(unavailable.headers)) response.http.headers.set(name.toLowerCase(), value);
        },
      };
    },
  };
}
