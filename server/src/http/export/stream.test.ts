import { describe, expect, it } from 'vitest';
import { exportStream, type ExportPage } from './stream.js';

/** An endless source of 100-row pages that records each read. */
function endless() {
  const reads: (string | undefined)[] = [];
  const read = async (cursor: string | undefined): Promise<ExportPage<{ n: number }>> => {
    reads.push(cursor);
    const start = cursor === undefined ? 0 : Number(cursor) + 1;
    const rows = Array.from({ length: 100 }, (_, i) => ({ n: start + i }));
    return { rows, cursors: rows.map((r) => String(r.n)), more: true };
  };
  return { reads, read };
}

const columns = [{ name: 'n', value: (r: { n: number }) => r.n }];
/** A page of these is larger than the stream's buffer, so reading ahead would show at once. */
const wide = [...columns, { name: 'pad', value: () => 'x'.repeat(200) }];
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('exportStream', () => {
  it('reads the next page only when the consumer takes data, and stops when it goes away', async () => {
    const source = endless();
    const stream = await exportStream({ format: 'ndjson', columns: wide, read: source.read });
    await settle();
    // Nothing taken yet: the first page, and at most the one the stream buffers.
    expect(source.reads.length).toBeLessThanOrEqual(2);
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    await settle();
    // However long the source, what was read is bounded by what was taken plus one buffered page.
    expect(source.reads.length).toBeLessThanOrEqual(4);
    stream.destroy();
    const after = source.reads.length;
    await settle();
    expect(source.reads.length).toBe(after);
  });

  it('carries the cursor after each row, and resumes from a given one', async () => {
    const source = endless();
    const stream = await exportStream({ format: 'csv', columns, read: source.read, after: '41' });
    const first = (await stream[Symbol.asyncIterator]().next()).value.toString();
    expect(first.split('\r\n').slice(0, 3)).toEqual(['n,cursor', '42,42', '43,43']);
    stream.destroy();
  });

  it('ends after the last page, and writes only the CSV header for no rows', async () => {
    const one = async (): Promise<ExportPage<{ n: number }>> => ({ rows: [], cursors: [], more: false });
    const chunks: string[] = [];
    for await (const chunk of await exportStream({ format: 'csv', columns, read: one })) chunks.push(chunk.toString());
    expect(chunks.join('')).toBe('n,cursor\r\n');
    const none: string[] = [];
    for await (const chunk of await exportStream({ format: 'ndjson', columns, read: one })) none.push(chunk.toString());
    expect(none).toEqual([]);
  });
});
