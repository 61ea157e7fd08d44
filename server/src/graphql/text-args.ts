import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, visit, type ValueNode } from 'graphql';
import { unstorable } from '../db/safe-text.js';
import type { FieldError } from '../errors.js';
import { jsonTreeIssues } from '../db/storable.js';

/** Variables are JSON of the caller's making: as deep and as wide as this, and no more. */
const VARIABLE_LIMITS = { maxDepth: 32, maxKeys: 10_000 };

/** Strings PostgreSQL would refuse in an argument literal, at `path` (argument and input-field names). */
function literalIssues(value: ValueNode, path: string, into: FieldError[]): void {
  if (value.kind === Kind.STRING) {
    const message = unstorable(value.value);
    if (message) into.push({ path, message });
  } else if (value.kind === Kind.LIST) {
    value.values.forEach((item, i) => literalIssues(item, `${path}.${i}`, into));
  } else if (value.kind === Kind.OBJECT) {
    for (const field of value.fields) literalIssues(field.value, `${path}.${field.name.value}`, into);
  }
}

/**
 * Refuses, before anything runs, every operation with an argument PostgreSQL cannot store or compare (a NUL, a
 * lone surrogate), in the document's literals or in its variables, as `validation_failed` naming where. One check
 * for every argument, present and future, where a check per resolver would be forgotten on the next one.
 */
export function storableArguments(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const errors: FieldError[] = [];
          visit(document, {
            Argument(node) {
              literalIssues(node.value, node.name.value, errors);
              return false;
            },
          });
          for (const issue of jsonTreeIssues(request.variables ?? {}, VARIABLE_LIMITS)) {
            errors.push({ path: `$${issue.path.join('.')}`, message: issue.message });
          }
          if (errors.length === 0) return;
          throw new GraphQLError(`Invalid ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, {
            extensions: { code: 'validation_failed', errors, http: { status: 400 } },
          });
        },
      };
    },
  };
}
