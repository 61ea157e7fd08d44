import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { vigilSchema } from './schema.js';

// The README's defineBehavior example must stay a valid operation as the schema changes.
describe('the README defineBehavior example', () => {
  it('is a valid operation against the schema', async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const block = /\*\*Through GraphQL\.\*\*[\s\S]*?```graphql\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toContain('defineBehavior');
    expect(validate(await vigilSchema(), parse(block!))).toEqual([]);
  });
});
