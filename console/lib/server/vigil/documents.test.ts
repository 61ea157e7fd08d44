import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { codegenConfig } from '../../../codegen';
import { consoleSchema } from '../../../codegen/schema';
import { documents } from './documents';

// The server's checked-in SDL (plus the session contract's not-yet-served additions): when the API changes, the
// console's operations and their generated types must change with it.
const { schema } = consoleSchema();

describe('console GraphQL operations', () => {
  it.each(Object.entries(documents))('%s is valid against the schema', (_name, text) => {
    expect(validate(schema, parse(text)).map((e) => e.message)).toEqual([]);
  });

  it('generated.ts is what `pnpm --filter @vigil/console codegen` makes of the current schema and documents', async () => {
    const [output] = await generate({ ...codegenConfig, cwd: fileURLToPath(new URL('../../..', import.meta.url)), silent: true }, false);
    const checkedIn = readFileSync(fileURLToPath(new URL('./generated.ts', import.meta.url)), 'utf8');
    expect(output?.content, 'run `pnpm --filter @vigil/console codegen` and commit lib/server/vigil/generated.ts').toBe(checkedIn);
  }, 60_000);
});
