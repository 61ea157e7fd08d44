import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fullIntrospectionQuery, MAX_INTROSPECTION_DEPTH, measure } from './limits.js';

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
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'me { id }'} }`).join(' ');
    expect(shape(`{ ...F0 } ${fragments}`, 1000).nodes).toBe(1001);
  });

  it('finds an introspection list selected twice on one path', () => {
    expect(shape('{ __schema { types { fields { type { fields { name } } } } } }').cycle).toBe('__schema.types.fields.type.fields');
    expect(shape('{ __type(name: "Device") { fields { name } interfaces { name } } }').cycle).toBeNull();
  });
});
