import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, type GraphQLSchema } from 'graphql';

/**
 * The schema the console is typed and checked against: the server's checked-in SDL, which the server's own test
 * keeps equal to what it serves.
 */
export function consoleSchema(): { schema: GraphQLSchema; sdl: string } {
  const sdl = readFileSync(fileURLToPath(new URL('../../server/schema.graphql', import.meta.url)), 'utf8');
  return { schema: buildSchema(sdl), sdl };
}
