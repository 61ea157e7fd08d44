import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { csvRow } from '../../export/csv.js';

export const exportFormats = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** One keyset page of an export: its rows, the cursor after each, and whether more follow. */
export interface ExportPage<R> {
  rows: R[];
  cursors: string[];
  more: boolean;
}

/** Reads the page after `cursor` (undefined: from the start), on whatever connections the caller chooses. */
export type PageReader<R> = (cursor: string | undefined) => Promise<ExportPage<R>>;

/** A column of the export: its name (CSV header, NDJSON key) and its value in a row. */
export interface ExportColumn<R> {
  name: string;
  value: (row: R) => unknown;
}

export interface ExportOptions<R> {
  format: ExportFormat;
  /** Download name without extension. */
  filename: string;
  columns: readonly ExportColumn<R>[];
  read: PageReader<R>;
  /** Resume after the row whose `cursor` this is. */
  after?: string | undefined;
}

const contentTypes: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** Every row carries the cursor after it, so a broken download resumes with `after=<the last cursor received>`. */
const CURSOR_COLUMN = 'cursor';

function encoder<R>(format: ExportFormat, columns: readonly ExportColumn<R>[]) {
  if (format === 'csv') return (row: R, cursor: string) => csvRow([...columns.map((c) => c.value(row)), cursor]);
  return (row: R, cursor: string) => `${JSON.stringify(Object.fromEntries([...columns.map((c) => [c.name, c.value(row)]), [CURSOR_COLUMN, cursor]]))}\n`;
}

/**
 * A keyset-paged export as a byte stream in constant memory: one page is held at a time, and the next is read only
 * when the consumer has taken the previous one (Readable.from pulls the generator as the socket drains; a closed
 * socket destroys the stream and no further page is read). The first page is read before the stream exists, so a
 * bad cursor or an unavailable database is still a problem+json answer; a failure later cuts the stream (the status
 * is already sent) and the client resumes from its last cursor.
 */
export async function exportStream<R>(options: Omit<ExportOptions<R>, 'filename'>): Promise<Readable> {
  const encode = encoder(options.format, options.columns);
  const first = await options.read(options.after);
  const header = options.format === 'csv' ? csvRow([...options.columns.map((c) => c.name), CURSOR_COLUMN]) : '';
  async function* chunks(): AsyncGenerator<string> {
    let page = first;
    let chunk = header;
    for (;;) {
      chunk += page.rows.map((row, i) => encode(row, page.cursors[i]!)).join('');
      if (chunk) yield chunk;
      chunk = '';
      if (!page.more || page.cursors.length === 0) return;
      page = await options.read(page.cursors.at(-1));
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Answers an export as a download (see exportStream). */
export async function sendExport<R>(reply: FastifyReply, options: ExportOptions<R>): Promise<FastifyReply> {
  const stream = await exportStream(options);
  const extension = options.format === 'csv' ? 'csv' : 'ndjson';
  return reply
    .header('content-type', contentTypes[options.format])
    .header('content-disposition', `attachment; filename="${options.filename}.${extension}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
