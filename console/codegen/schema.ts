import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  extendSchema,
  isEnumType,
  isInputObjectType,
  isObjectType,
  Kind,
  parse,
  printSchema,
  type DefinitionNode,
  type GraphQLSchema,
} from 'graphql';

const serverSdl = () => readFileSync(fileURLToPath(new URL('../../server/schema.graphql', import.meta.url)), 'utf8');
const contractSdl = () => readFileSync(fileURLToPath(new URL('../graphql/contract.graphql', import.meta.url)), 'utf8');

/** Names a definition of contract.graphql adds that `schema` does not serve yet; empty when all are served. */
function missing(schema: GraphQLSchema, definition: DefinitionNode): DefinitionNode | null {
  switch (definition.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
    case Kind.ENUM_TYPE_DEFINITION:
      return schema.getType(definition.name.value) ? null : definition;
    case Kind.OBJECT_TYPE_EXTENSION:
    case Kind.INPUT_OBJECT_TYPE_EXTENSION: {
      const type = schema.getType(definition.name.value);
      const existing = isObjectType(type) || isInputObjectType(type) ? type.getFields() : {};
      const fields = (definition.fields ?? []).filter((f) => !(f.name.value in existing));
      if (!fields.length) return null;
      // A root type the server has none of yet (Subscription) is a definition, not an extension.
      if (!type) return { ...definition, kind: Kind.OBJECT_TYPE_DEFINITION, fields } as DefinitionNode;
      return { ...definition, fields } as DefinitionNode;
    }
    case Kind.ENUM_TYPE_EXTENSION: {
      const type = schema.getType(definition.name.value);
      const known = new Set(isEnumType(type) ? type.getValues().map((v) => v.name) : []);
      const values = (definition.values ?? []).filter((v) => !known.has(v.name.value));
      return values.length ? ({ ...definition, values } as DefinitionNode) : null;
    }
    default:
      return definition;
  }
}

/**
 * The schema the console is typed and checked against: the server's checked-in SDL plus whatever part of the
 * session contract (graphql/contract.graphql) it does not serve yet. `pending` lists those parts, so a test can
 * show what the console still expects from the server.
 */
export function consoleSchema(): { schema: GraphQLSchema; sdl: string; pending: string[] } {
  const served = buildSchema(serverSdl());
  const additions = parse(contractSdl())
    .definitions.map((d) => missing(served, d))
    .filter((d): d is DefinitionNode => d !== null);
  const extended = additions.length ? extendSchema(served, { kind: Kind.DOCUMENT, definitions: additions }, { assumeValidSDL: true }) : served;
  // Printed and built again so a root type added here (Subscription) is found by its conventional name.
  const sdl = printSchema(extended);
  const pending = additions.map((d) => ('name' in d && d.name ? d.name.value : d.kind));
  return { schema: buildSchema(sdl), sdl, pending };
}
