import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { vigilSchema } from '../graphql/schema.js';

// The README's eventStats example must stay a valid operation as the schema changes.
describe('the README eventStats example', () => {
  it('is a valid operation against the schema', async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const block = /### Aggregates and the live feed[\s\S]*?```graphql\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toContain('eventStats');
    expect(validate(await vigilSchema(), parse(block!))).toEqual([]);
  });
});
