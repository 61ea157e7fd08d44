import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvCell as csvField, csvRow, csvRow as csvLine } from './csv.js';

describe('csv', () => {
  it('quotes quotes, commas and line breaks, and defuses formula-leading text', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const lead of ['+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvField(lead).replace(/^"/, '').startsWith(`'${lead[0]}`)).toBe(true);
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField(null)).toBe('');
  });

  it('reads back as the same fields through a real CSV parser (formula text with its prefix)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const width = rows[0]!.length;
        const table = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? 'x'));
        const parsed = parse(table.map(csvLine).join(''), { relax_column_count: false }) as string[][];
        const defused = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
        expect(parsed).toEqual(table.map((r) => r.map(defused)));
      }),
    );
  });
});

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['ünï 😀', 'ünï 😀'],
    ['', ''],
  ])('%j is written %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('writes numbers as numbers (a negative one is not a formula), nulls empty, dates ISO, arrays and objects as JSON', () => {
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(0.95)).toBe('0.95');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(new Date(Date.UTC(2025, 0, 2)))).toBe('2025-01-02T00:00:00.000Z');
    expect(csvCell(['a', 'b'])).toBe('"[""a"",""b""]"');
    expect(csvCell({ k: '=x' })).toBe('"{""k"":""=x""}"');
  });

  it('ends a row with CRLF', () => {
    expect(csvRow(['a', 1, null, '=x'])).toBe("a,1,,'=x\r\n");
  });
});
