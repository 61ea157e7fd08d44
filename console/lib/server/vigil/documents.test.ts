import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documents } from './documents';

// The server's checked-in SDL: when the API changes, the console's operations must change with it.
const sdl = readFileSync(fileURLToPath(new URL('../../../../server/schema.graphql', import.meta.url)), 'utf8');
const schema = buildSchema(sdl);

describe('console GraphQL operations', () => {
  it.each(Object.entries(documents))('%s is valid against server/schema.graphql', (_name, text) => {
    expect(validate(schema, parse(text)).map((e) => e.message)).toEqual([]);
  });
});
