import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type FragmentDefinitionNode, type GraphQLSchema } from 'graphql';
import { createRequire } from 'node:module';
import type { RowEstimates } from '../reporting/estimates.js';
import type { ConcurrencyLimit } from './concurrency.js';
import type { GraphqlContext } from './context.js';
import { overBudget, overScanLimit, tooExpensive, type CostContext } from './cost.js';

// graphql-query-complexity's ESM build imports graphql/index.mjs while Apollo and type-graphql load graphql's
// CommonJS build; two copies of graphql refuse each other's schema. Its CommonJS build shares theirs.
const { fieldExtensionsEstimator, getComplexity, simpleEstimator } = createRequire(import.meta.url)(
  'graphql-query-complexity',
) as typeof import('graphql-query-complexity');

export interface CostLimitOptions {
  schema: GraphQLSchema;
  estimates: RowEstimates;
  maxCost: number;
  /** Rows one statement may read (the embedded database, which cannot time a statement out); null: no limit. */
  maxScanRows: number | null;
  /** From this cost an operation takes one of its principal's places in `concurrency`. */
  expensiveCost: number;
  concurrency: ConcurrencyLimit;
}

/**
 * Prices each operation before anything runs (see cost.ts) and refuses it when it costs more than `maxCost`, when
 * one of its statements may read more than `maxScanRows`, or when its principal already runs as many expensive
 * operations as allowed (429 with Retry-After). The selection limits (a validation rule) have already bounded the
 * document, so pricing it is cheap.
 */
export function costLimit(options: CostLimitOptions): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      let release: (() => void) | null = null;
      return {
        async didResolveOperation({ request, document, contextValue }) {
          const fragments = new Map(
            document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
          );
          const context: CostContext = { rows: await options.estimates.current(), fragments, scans: [] };
          let cost: number;
          try {
            cost = getComplexity({
              schema: options.schema,
              query: document,
              variables: request.variables ?? {},
              ...(request.operationName ? { operationName: request.operationName } : {}),
              estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
              context,
              maxQueryNodes: Number.MAX_SAFE_INTEGER,
            });
          } catch (error) {
            // Its own refusals carry no code; ours must be a 400 with one, never a 500.
            throw tooExpensive(`Query could not be priced: ${error instanceof Error ? error.message : String(error)}`);
          }
          if (cost > options.maxCost) throw overBudget(cost, options.maxCost, context.scans);
          const over = options.maxScanRows === null ? undefined : context.scans.find((s) => s.rows > options.maxScanRows!);
          if (over) throw overScanLimit(over, options.maxScanRows!);
          if (cost < options.expensiveCost) return;
          release = options.concurrency.tryAcquire(contextValue.principal.supervisor.id);
          if (!release) {
            const max = options.concurrency.max;
            throw new GraphQLError(
              `This account already runs ${max} expensive ${max === 1 ? 'query' : 'queries'} (cost ${options.expensiveCost.toLocaleString('en')} or more) at once; ` +
                `the limit is ${max} (VIGIL_GRAPHQL_MAX_CONCURRENT) and this one costs ${cost.toLocaleString('en')}. Retry after 1 s.`,
              { extensions: { code: 'rate_limited', http: { status: 429, headers: new HeaderMap([['retry-after', '1']]) } } },
            );
          }
        },
        async willSendResponse() {
          release?.();
          release = null;
        },
      };
    },
  };
}
