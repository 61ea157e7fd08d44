import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { printVigilSchema } from './schema.js';

describe('the checked-in GraphQL schema', () => {
  it('matches the schema the code builds (regenerate with `pnpm schema:graphql`)', async () => {
    const checkedIn = readFileSync(fileURLToPath(new URL('../../schema.graphql', import.meta.url)), 'utf8');
    expect(await printVigilSchema()).toBe(checkedIn);
  });
});
