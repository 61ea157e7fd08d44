import { describe, expect, it } from 'vitest';
import { isStorableText, storableText } from './safe-text.js';

describe('isStorableText', () => {
  it('accepts any well-formed text, including emoji and other planes', () => {
    for (const s of ['', 'teller', 'ñandú', '😀 device', '\u{10FFFF}']) expect(isStorableText(s)).toBe(true);
  });
  it('refuses what PostgreSQL refuses: a NUL, a lone surrogate', () => {
    for (const s of ['a\u0000b', '\u0000', 'x\uD800', '\uDFFFy']) expect(isStorableText(s)).toBe(false);
  });
  it('is a zod refinement with a message saying why', () => {
    const parsed = storableText().safeParse('a\u0000');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/NUL/);
    expect(storableText().parse('ok')).toBe('ok');
  });
});
