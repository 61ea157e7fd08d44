import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultTagWeights, DEFAULT_BLOCK_THRESHOLD } from '../config/file.js';
import { scoreTags } from './score.js';
import { tagCatalog } from './tags.js';

// A small deterministic generator so the property checks are reproducible.
function* randomTagSets(seed: number, count: number): Generator<string[]> {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  const tags = Object.keys(tagCatalog);
  for (let i = 0; i < count; i++) yield tags.filter(() => next() < 0.4);
}

describe('scoreTags', () => {
  it('is zero with no tags', () => {
    expect(scoreTags([], defaultTagWeights)).toEqual({ risk_score: 0, score_breakdown: [] });
  });

  it('gives a single tag exactly its weight', () => {
    expect(scoreTags(['new_device'], defaultTagWeights).risk_score).toBeCloseTo(defaultTagWeights.new_device!);
  });

  it('puts any Critical tag alone at or above the block threshold', () => {
    for (const [tag, { severity }] of Object.entries(tagCatalog)) {
      if (severity !== 'critical') continue;
      expect(scoreTags([tag], defaultTagWeights).risk_score).toBeGreaterThanOrEqual(DEFAULT_BLOCK_THRESHOLD);
    }
  });

  it('stays within [0, 1] and never drops when a tag is added', () => {
    const all = Object.keys(tagCatalog);
    for (const set of randomTagSets(7, 500)) {
      const base = scoreTags(set, defaultTagWeights).risk_score;
      expect(base).toBeGreaterThanOrEqual(0);
      expect(base).toBeLessThanOrEqual(1);
      for (const extra of all) {
        expect(scoreTags([...set, extra], defaultTagWeights).risk_score).toBeGreaterThanOrEqual(base);
      }
    }
  });

  it('explains itself: contributions sum to the score', () => {
    const { risk_score, score_breakdown } = scoreTags(['vpn', 'new_device', 'tor'], defaultTagWeights);
    const sum = score_breakdown.reduce((a, c) => a + c.contribution, 0);
    expect(sum).toBeCloseTo(risk_score, 5);
    expect(score_breakdown.map((c) => c.tag)).toEqual(['tor', 'vpn', 'new_device']);
  });

  it('clamps out-of-range weights and ignores unknown tags', () => {
    expect(scoreTags(['x'], { x: 7 }).risk_score).toBe(1);
    expect(scoreTags(['unknown'], {}).risk_score).toBe(0);
  });
});

describe('scoreTags with rules (property-based)', () => {
  const tags = Object.keys(tagCatalog);
  const rule = fc.record({ name: fc.constantFrom('rule:a', 'rule:b', 'rule:c', 'rule:d'), weight: fc.double({ min: 0, max: 1, noNaN: true }) });
  const weights = fc.dictionary(fc.constantFrom(...tags, 'custom'), fc.double({ min: 0, max: 1, noNaN: true }));

  it('stays within [0, 1] and sums its breakdown, for any tags, weights and fired rules', () => {
    fc.assert(
      fc.property(fc.subarray(tags), fc.array(rule, { maxLength: 4 }), weights, (set, rules, w) => {
        const { risk_score, score_breakdown } = scoreTags(set, w, rules);
        expect(risk_score).toBeGreaterThanOrEqual(0);
        expect(risk_score).toBeLessThanOrEqual(1);
        expect(score_breakdown.reduce((a, c) => a + c.contribution, 0)).toBeCloseTo(risk_score, 4);
      }),
    );
  });

  it('never drops when a tag or a rule fires', () => {
    fc.assert(
      fc.property(fc.subarray(tags), fc.array(rule, { maxLength: 3 }), fc.constantFrom(...tags), rule, weights, (set, rules, extraTag, extraRule, w) => {
        const base = scoreTags(set, w, rules).risk_score;
        expect(scoreTags([...set, extraTag], w, rules).risk_score).toBeGreaterThanOrEqual(base);
        expect(scoreTags(set, w, [...rules, extraRule]).risk_score).toBeGreaterThanOrEqual(base);
      }),
    );
  });

  it('keeps a Critical tag alone at the block threshold whatever rules add', () => {
    fc.assert(
      fc.property(fc.constantFrom('emulator', 'rooted', 'hooked', 'tor'), fc.array(rule, { maxLength: 4 }), (tag, rules) => {
        expect(scoreTags([tag], defaultTagWeights, rules).risk_score).toBeGreaterThanOrEqual(DEFAULT_BLOCK_THRESHOLD);
      }),
    );
  });

  it('names each rule contribution', () => {
    const { score_breakdown } = scoreTags(['vpn'], defaultTagWeights, [{ name: 'rule:velocity', weight: 0.3 }]);
    expect(score_breakdown).toEqual([
      { tag: 'vpn', weight: 0.4, contribution: 0.4 },
      { tag: 'rule:velocity', weight: 0.3, contribution: 0.18 },
    ]);
  });
});
