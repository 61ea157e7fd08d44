import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storableString, unstorable } from './safe-text.js';
import { jsonTreeIssues, jsonTreeStorable } from './storable.js';

const limits = { maxDepth: 5, maxKeys: 200 };

/** Strings of up to `maxLength` units, now and then one PostgreSQL refuses (NUL, a lone surrogate). */
const textOf = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udc00') },
    ),
    maxLength,
  });

/** JSON values with keys and strings from `text`, containers of up to `width` children. */
const treeOf = (text: fc.Arbitrary<string>, width: number) =>
  fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', maxDepth: 6 },
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('node'), { maxLength: width }),
      fc.dictionary(text, tie('node'), { maxKeys: width }),
    ),
  })).node;

describe('unstorable', () => {
  it('refuses NUL and lone surrogates, and nothing else', () => {
    expect(unstorable('a\u0000')).toMatch(/NUL/);
    expect(unstorable('\ud800')).toMatch(/surrogate/);
    expect(unstorable('x\udfff')).toMatch(/surrogate/);
    expect(unstorable('\ud83d\ude00 \u0001 \uffff café')).toBeUndefined();
    expect(storableString().max(3).safeParse('a\u0000').success).toBe(false);
    expect(storableString().max(3).safeParse('abcd').success).toBe(false);
  });
});

describe('jsonTreeIssues', () => {
  it('reports bad values at their path and bad keys at their parent', () => {
    expect(jsonTreeIssues({ a: { b: ['ok', 'x\u0000'] }, c: { 'k\ud800': 1 } }, limits)).toEqual([
      { path: ['a', 'b', 1], message: 'must not contain NUL characters' },
      { path: ['c'], message: 'key must be well-formed Unicode (no lone surrogates)' },
    ]);
  });

  it('stops at the depth limit however deep the value goes, without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonTreeIssues({ a: deep }, limits)).toEqual([{ path: ['a', 0, 0, 0, 0], message: 'nesting deeper than 5 levels' }]);
  });

  it('counts keys across every level', () => {
    const wide = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    expect(jsonTreeIssues({ a: wide }, limits)).toEqual([]);
    expect(jsonTreeIssues({ a: wide, b: wide }, limits)).toEqual([{ path: [], message: 'more than 200 keys in total' }]);
  });

  it('finds a problem exactly when some string in the tree is unstorable, and answers briefly', () => {
    const text = textOf(6);
    const tree = treeOf(text, 4);
    const strings = (v: unknown, depth: number): string[] =>
      typeof v === 'string'
        ? [v]
        : v && typeof v === 'object' && depth <= 32
          ? Object.entries(v).flatMap(([k, c]) => [...(Array.isArray(v) ? [] : [k]), ...strings(c, depth + 1)])
          : [];
    fc.assert(
      fc.property(fc.dictionary(text, tree, { maxKeys: 6 }), (value) => {
        const issues = jsonTreeIssues(value, { maxDepth: 32, maxKeys: 10_000 });
        expect(issues.length > 0).toBe(strings(value, 1).some((s) => unstorable(s) !== undefined));
        expect(jsonTreeStorable(value, { maxDepth: 32, maxKeys: 10_000 })).toBe(issues.length === 0);
        expect(issues.length).toBeLessThanOrEqual(20);
      }),
      { numRuns: 300 },
    );
  });
});

describe('jsonTreeStorable', () => {
  it('agrees with jsonTreeIssues on every tree, the limits included', () => {
    const tree = treeOf(textOf(4), 5);
    // Small limits, so that trees over the depth and the key count are common.
    const small = fc.record({ maxDepth: fc.integer({ min: 1, max: 4 }), maxKeys: fc.integer({ min: 0, max: 12 }) });
    fc.assert(
      fc.property(tree, small, (value, limits) => {
        expect(jsonTreeStorable(value, limits)).toBe(jsonTreeIssues(value, limits).length === 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses at the limits exactly where jsonTreeIssues does', () => {
    const nested = (depth: number): unknown => (depth === 1 ? ['x'] : [nested(depth - 1)]);
    expect(jsonTreeStorable(nested(5), limits)).toBe(true);
    expect(jsonTreeStorable(nested(6), limits)).toBe(false);
    const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
    expect(jsonTreeStorable(wide, limits)).toBe(true);
    expect(jsonTreeStorable({ ...wide, one: 1 }, limits)).toBe(false);
    expect(jsonTreeStorable({ a: { 'k\u0000': 1 } }, limits)).toBe(false);
    expect(jsonTreeStorable(Object.create({ inherited: 'x\u0000' }), limits)).toBe(true);
  });

  it('stays within the depth limit however deep the value goes', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonTreeStorable({ a: deep }, limits)).toBe(false);
  });
});
