import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storableString, unstorable } from './safe-text.js';
import { jsonTreeIssues } from './storable.js';

const limits = { maxDepth: 5, maxKeys: 200 };

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
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udc00') },
    );
    const text = fc.string({ unit, maxLength: 6 });
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
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
        expect(issues.length).toBeLessThanOrEqual(20);
      }),
      { numRuns: 300 },
    );
  });
});
