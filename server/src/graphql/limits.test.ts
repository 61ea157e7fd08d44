import { Kind, parse, print, validate, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fullIntrospectionQuery, MAX_DEPTH, MAX_INTROSPECTION_DEPTH, MAX_NODES, measure, selectionLimits } from './limits.js';
import { vigilSchema } from './schema.js';

function shape(query: string, stopAt = Infinity) {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  return measure(operation, fragments, stopAt);
}

describe('measure', () => {
  it('counts introspection apart from ordinary depth, and the standard query sets the introspection limit', () => {
    const standard = shape(fullIntrospectionQuery);
    expect(standard).toMatchObject({ depth: 0, cycle: null, introspectionDepth: MAX_INTROSPECTION_DEPTH });
    // graphql-js nests TypeRef's ofType 9+ levels: deeper than the ordinary limit of 8.
    expect(MAX_INTROSPECTION_DEPTH).toBeGreaterThan(8);
    expect(shape('{ devices { nodes { id } } __typename }').depth).toBe(3);
  });

  it('counts every alias and every use of a fragment', () => {
    expect(shape('{ a: me { id } b: me { id } }').nodes).toBe(4);
    expect(shape('{ ...F ...F } fragment F on Query { me { id username } }').nodes).toBe(8);
  });

  it('stops counting at the cap, so a fragment bomb costs no more than that', () => {
    const levels = 30;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'me { id }'} }`,
    ).join(' ');
    expect(shape(`{ ...F0 } ${fragments}`, 1000).nodes).toBe(1001);
  });

  it('finds an introspection list selected twice on one path', () => {
    expect(shape('{ __schema { types { fields { type { fields { name } } } } } }').cycle).toBe('__schema.types.fields.type.fields');
    expect(shape('{ __type(name: "Device") { fields { name } interfaces { name } } }').cycle).toBeNull();
  });
});

describe('the selection limits with introspection allowed', () => {
  const refusals = async (query: string) =>
    validate(await vigilSchema(), parse(query), [selectionLimits({ maxDepth: MAX_DEPTH, maxNodes: MAX_NODES })]).map((e) => e.message);

  it('lets the full standard introspection query through', async () => {
    expect(await refusals(fullIntrospectionQuery)).toEqual([]);
  });

  it('keeps the depth limit of ordinary fields, also beside introspection in one operation', async () => {
    const nine = `{ ${'a { '.repeat(8)}b${' }'.repeat(8)} }`;
    expect(shape(nine).depth).toBe(9);
    expect(await refusals(nine)).toEqual(['Query is nested 9 levels deep; the limit is 8 (over by 1)']);
    const beside = `{ __schema { types { name } } ${'a { '.repeat(8)}b${' }'.repeat(8)} }`;
    expect(await refusals(beside)).toEqual(['Query is nested 9 levels deep; the limit is 8 (over by 1)']);
  });

  it('keeps the node limit: the standard query fits, enough aliased copies of it do not', async () => {
    const document = parse(fullIntrospectionQuery);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const body = print(operation.selectionSet.selections[0]!);
    const fragments = document.definitions
      .filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)
      .map(print)
      .join(' ');
    const once = shape(fullIntrospectionQuery).nodes;
    const copies = Math.floor(MAX_NODES / once) + 1;
    const many = `{ ${Array.from({ length: copies }, (_, i) => `c${i}: ${body}`).join(' ')} } ${fragments}`;
    expect((await refusals(many))[0]).toMatch(/the limit is 2,000/);
  });
});
