import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';

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
