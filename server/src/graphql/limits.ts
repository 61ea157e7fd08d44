import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { createRequire } from 'node:module';

// graphql-query-complexity's ESM build imports graphql/index.mjs while Apollo and type-graphql load graphql's
// CommonJS build; two copies of graphql refuse each other's schema. Its CommonJS build shares theirs.
const { fieldExtensionsEstimator, getComplexity, simpleEstimator } = createRequire(import.meta.url)(
  'graphql-query-complexity',
) as typeof import('graphql-query-complexity');

/** Deep enough for device → history / recentEvents inside a connection; a cyclic abuse is much deeper. */
export const MAX_DEPTH = 8;
/** A full page of 500 devices with every field and their recent events stays under this; abuse does not. */
export const MAX_COMPLEXITY = 50_000;

/** Refuses operations nested deeper than `max` fields (fragments followed, introspection included). */
export function depthLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const depthOf = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
      if (!set) return depth;
      let deepest = depth;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) deepest = Math.max(deepest, depthOf(sel.selectionSet, depth + 1, seen));
        else if (sel.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(sel.selectionSet, depth, seen));
        else if (!seen.has(sel.name.value)) {
          const fragment = fragments.get(sel.name.value);
          deepest = Math.max(deepest, depthOf(fragment?.selectionSet, depth, new Set([...seen, sel.name.value])));
        }
        if (deepest > max) return deepest;
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > max) {
          context.reportError(new GraphQLError(`Query is nested ${depth} levels deep; the limit is ${max}`, { nodes: [node], extensions: { code: 'validation_failed' } }));
        }
      },
    };
  };
}

/**
 * Refuses operations whose estimated cost is above `max` before anything runs. List fields declare their cost
 * as child cost × page size (see the `complexity` of each paged field).
 */
export function complexityLimit(schema: GraphQLSchema, max: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const complexity = getComplexity({
            schema,
            query: document,
            variables: request.variables ?? {},
            ...(request.operationName ? { operationName: request.operationName } : {}),
            estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
          });
          if (complexity > max) {
            throw new GraphQLError(`Query costs ${complexity}; the limit is ${max}. Ask for fewer items or fields.`, {
              extensions: { code: 'validation_failed', http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

/** Cost of a paged field: its children, once per item asked for. */
export const perItem =
  (defaultCount: number) =>
  ({ args, childComplexity }: { args: Record<string, unknown>; childComplexity: number }) =>
    1 + childComplexity * (typeof args.first === 'number' ? args.first : defaultCount);
