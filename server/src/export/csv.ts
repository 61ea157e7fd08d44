/**
 * CSV as RFC 4180 writes it (CRLF line ends, a field quoted when it holds a quote, comma or line break, quotes
 * doubled), with text that a spreadsheet would run as a formula defused: a text field starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return gets a leading `'` (OWASP's advice against CSV injection). Numbers are written as
 * numbers, never prefixed; an empty field is null.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value == null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;
