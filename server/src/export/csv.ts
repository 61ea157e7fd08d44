/**
 * CSV cells (RFC 4180) that a spreadsheet opens as text, never as a formula: a text cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return gets a leading `'` (OWASP's CSV-injection advice), so a device id or a
 * reason written by anyone cannot run when a supervisor opens the file. Numbers are written as they are.
 */

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** One cell: null/undefined empty, dates ISO 8601, arrays and objects as JSON, text guarded and quoted as needed. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (formulaStart.test(text)) text = `'${text}`;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 asks. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
