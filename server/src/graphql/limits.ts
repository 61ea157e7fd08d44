import {
  getIntrospectionQuery,
  GraphQLError,
  Kind,
  parse,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/** Deep enough for device → history / recentEvents inside a connection; a cyclic abuse is much deeper. */
export const MAX_DEPTH = 8;
/** Fields (each alias, each use of a fragment) one operation may select: a console page selects a few dozen. */
export const MAX_NODES = 2_000;
/** Tokens one document may hold; parsing stops there, so validation never sees a huge document. */
export const MAX_TOKENS = 25_000;

/** Introspection lists; a path through the schema that selects one twice (types → fields → type → fields) cycles. */
const INTROSPECTION_LISTS = new Set(['types', 'directives', 'fields', 'args', 'inputFields', 'interfaces', 'possibleTypes', 'enumValues']);
const isIntrospection = (name: string) => name.startsWith('__') && name !== '__typename';

export interface SelectionShape {
  /** Deepest nesting of ordinary fields; introspection fields are not counted here. */
  depth: number;
  /** Deepest nesting below `__schema` / `__type`. */
  introspectionDepth: number;
  /** Selected fields and fragment spreads, fragments expanded; stops counting past `stopAt`. */
  nodes: number;
  /** An introspection list selected twice on one path, if any. */
  cycle: string | null;
}

/** Measures an operation as the limits see it, fragments followed (each spread counts its fragment again). */
export function measure(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, stopAt: number): SelectionShape {
  const shape: SelectionShape = { depth: 0, introspectionDepth: 0, nodes: 0, cycle: null };
  const walk = (set: SelectionSetNode | undefined, depth: number, introspection: readonly string[] | null, seen: ReadonlySet<string>): void => {
    if (!set) return;
    for (const sel of set.selections) {
      if (shape.nodes >= stopAt) {
        shape.nodes = stopAt + 1;
        return;
      }
      shape.nodes++;
      if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet, depth, introspection, seen);
      else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        if (!seen.has(sel.name.value)) walk(fragments.get(sel.name.value)?.selectionSet, depth, introspection, new Set([...seen, sel.name.value]));
      } else if (introspection !== null || isIntrospection(sel.name.value)) {
        const path = [...(introspection ?? []), sel.name.value];
        shape.introspectionDepth = Math.max(shape.introspectionDepth, path.length);
        if (INTROSPECTION_LISTS.has(sel.name.value) && (introspection ?? []).includes(sel.name.value)) shape.cycle ??= path.join('.');
        walk(sel.selectionSet, depth, path, seen);
      } else {
        shape.depth = Math.max(shape.depth, depth + 1);
        walk(sel.selectionSet, depth + 1, null, seen);
      }
    }
  };
  walk(operation.selectionSet, 0, null, new Set());
  return shape;
}

const fragmentsOf = (definitions: readonly { kind: Kind }[]) =>
  new Map(definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));

/** graphql-js's full introspection query, every option on: the one GraphQL tools send, which must always pass. */
export const fullIntrospectionQuery = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
});

/** As deep as the full introspection query goes, and no deeper. */
export const MAX_INTROSPECTION_DEPTH = (() => {
  const document = parse(fullIntrospectionQuery);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return measure(operation, fragmentsOf(document.definitions), Infinity).introspectionDepth;
})();

export interface SelectionLimits {
  maxDepth: number;
  maxNodes: number;
}

const refusal = (message: string, node: OperationDefinitionNode) => new GraphQLError(message, { nodes: [node], extensions: { code: 'query_too_expensive' } });

/**
 * Refuses, before anything runs, operations nested deeper than `maxDepth` ordinary fields, selecting more than
 * `maxNodes` fields, or introspecting deeper than the standard introspection query or in cycles. Cheap: it stops
 * counting at ten times the node limit, so no document makes it do more than that.
 */
export function selectionLimits({ maxDepth, maxNodes }: SelectionLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context.getDocument().definitions);
    return {
      OperationDefinition(node) {
        const stopAt = maxNodes * 10;
        const shape = measure(node, fragments, stopAt);
        if (shape.nodes > maxNodes) {
          const count = shape.nodes > stopAt ? `more than ${stopAt.toLocaleString('en')}` : shape.nodes.toLocaleString('en');
          const over = shape.nodes > stopAt ? '' : ` (over by ${(shape.nodes - maxNodes).toLocaleString('en')})`;
          context.reportError(
            refusal(`Query selects ${count} fields, aliases and fragments counted each time; the limit is ${maxNodes.toLocaleString('en')}${over}`, node),
          );
        } else if (shape.depth > maxDepth) {
          context.reportError(refusal(`Query is nested ${shape.depth} levels deep; the limit is ${maxDepth} (over by ${shape.depth - maxDepth})`, node));
        } else if (shape.introspectionDepth > MAX_INTROSPECTION_DEPTH) {
          context.reportError(
            refusal(
              `Introspection is nested ${shape.introspectionDepth} levels deep; the limit is ${MAX_INTROSPECTION_DEPTH}, the depth of the standard introspection query`,
              node,
            ),
          );
        } else if (shape.cycle) {
          context.reportError(
            refusal(`Introspection selects the same list twice on one path (${shape.cycle}); the standard introspection query never does`, node),
          );
        }
      },
    };
  };
}
