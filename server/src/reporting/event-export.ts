import type { Queryable } from '../db/handle.js';
import { csvRow as csvLine } from '../export/csv.js';
import type { EventFilter } from './event-filter.js';
import { listEvents, type EventPage, type EventSummary } from './events.js';

export type ExportFormat = 'ndjson' | 'csv';

/** Rows read per statement: a page is what the server holds at a time, whatever the export's length. */
export const EXPORT_PAGE_ROWS = 1000;

export interface EventExportRequest {
  filter: EventFilter;
  format: ExportFormat;
  /** A row's cursor from an earlier export: the export goes on from the row after it. */
  after?: string | null | undefined;
  /** Events received at or after this instant are left out (see EventListOptions.receivedBefore). */
  receivedBefore: Date;
  pageRows?: number;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : v == null ? null : String(v));

/** One event as an NDJSON line carries it: the stored columns, the registration at the time, and the full insights. */
function record(e: EventSummary, cursor: string) {
  const device = (e.response.device ?? {}) as { registered_to?: unknown; role?: unknown; metadata?: Record<string, unknown> };
  return {
    cursor,
    id: e.id,
    name: e.name,
    identity: e.identity,
    device_id: e.deviceId,
    handprint_id: e.handprintId,
    session_id: e.sessionId,
    ip: e.ip,
    user_agent: e.userAgent,
    tags: e.tags,
    risk_score: e.riskScore,
    occurred_at: e.occurredAt.toISOString(),
    received_at: e.receivedAt.toISOString(),
    user_id: text(device.registered_to),
    role: text(device.role),
    branch: text(device.metadata?.branch),
    properties: e.properties,
    insights: e.response,
  };
}

/** CSV columns, in order; `properties` and `behaviors` are JSON text, `tags` are joined with `;`. */
export const CSV_COLUMNS = [
  'id',
  'received_at',
  'occurred_at',
  'name',
  'identity',
  'device_id',
  'handprint_id',
  'session_id',
  'ip',
  'user_agent',
  'tags',
  'risk_score',
  'user_id',
  'role',
  'branch',
  'properties',
  'behaviors',
  'cursor',
] as const;

function csvRow(e: EventSummary, cursor: string): string {
  const r = record(e, cursor);
  return csvLine([
    r.id,
    r.received_at,
    r.occurred_at,
    r.name,
    r.identity,
    r.device_id,
    r.handprint_id,
    r.session_id,
    r.ip,
    r.user_agent,
    r.tags.join(';'),
    r.risk_score,
    r.user_id,
    r.role,
    r.branch,
    JSON.stringify(r.properties),
    JSON.stringify(e.response.behaviors ?? {}),
    cursor,
  ]);
}

function render(page: EventPage, format: ExportFormat): string {
  const lines = page.events.map((e, i) => (format === 'csv' ? csvRow(e, page.cursors[i]!) : `${JSON.stringify(record(e, page.cursors[i]!))}\n`));
  return lines.join('');
}

/**
 * An export as text chunks, one per page, in received order. Pages are read one at a time, when the consumer
 * asks for the next chunk (a pull-based async iterator): a slow client holds one page in memory, not the export.
 * The first page is read before the iterator is handed out, so a bad cursor or a database fault is still an
 * ordinary error answer, not a cut stream.
 */
export async function exportEvents(db: Queryable, request: EventExportRequest): Promise<AsyncGenerator<string>> {
  const rows = request.pageRows ?? EXPORT_PAGE_ROWS;
  const read = (after: string | null | undefined) =>
    listEvents(db, request.filter, rows, after, { order: 'received_asc', receivedBefore: request.receivedBefore });
  const first = await read(request.after);
  async function* chunks(): AsyncGenerator<string> {
    if (request.format === 'csv') yield csvLine(CSV_COLUMNS);
    let page = first;
    for (;;) {
      if (page.events.length > 0) yield render(page, request.format);
      if (!page.nextCursor) return;
      page = await read(page.nextCursor);
    }
  }
  return chunks();
}
