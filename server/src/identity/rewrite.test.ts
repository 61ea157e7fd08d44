import { describe, expect, it } from 'vitest';
import { needles, replacements, rewriteJson, rewriteText } from './rewrite.js';

const r = replacements([
  { value: 'Ann', pseudonym: 'P', caseless: false, inside: true },
  { value: 'Ann.Lee@Example.com', pseudonym: 'PE', caseless: true, inside: true },
  { value: '+14155550100', pseudonym: 'PP', caseless: true, inside: true },
  { value: '10.0.0.1', pseudonym: 'PI', caseless: true, inside: false },
]);

describe('erasure rewrite', () => {
  it('replaces whole strings, an identity only in its own case', () => {
    expect(rewriteText('Ann', r)).toBe('P');
    expect(rewriteText('ann', r)).toBe('ann');
    expect(rewriteText('ann.lee@example.COM', r)).toBe('PE');
    expect(rewriteText('10.0.0.1', r)).toBe('PI');
  });

  it('replaces long values inside text, never short ones or IPs', () => {
    expect(rewriteText('mail ANN.LEE@example.com or call +14155550100', r)).toBe('mail PE or call PP');
    expect(rewriteText('Annual', r)).toBe('Annual');
    expect(rewriteText('110.0.0.12', r)).toBe('110.0.0.12');
  });

  it('walks JSON: values and keys, numbers untouched', () => {
    expect(rewriteJson({ email: 'ann.lee@example.com', n: 42, list: ['Ann', null, true], 'ann.lee@example.com': 1 }, r)).toEqual({
      email: 'PE',
      n: 42,
      list: ['P', null, true],
      PE: 1,
    });
  });

  it('gives lowercased needles for the SQL prefilter', () => {
    expect(needles(r).sort()).toEqual(['+14155550100', '10.0.0.1', 'ann', 'ann.lee@example.com']);
  });
});
