import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from '../../config/env.js';
import type { DatabaseHandle } from '../../db/handle.js';
import { storableString } from '../../db/safe-text.js';
import { settledBefore } from '../../reporting/settled.js';
import { CSV_COLUMNS, exportEvents } from '../../reporting/event-export.js';
import { insightsSchema } from '../../pipeline/insights.js';
import type { EventFilter } from '../../reporting/event-filter.js';
import { requireSupervisor, type SupervisorGuardDeps } from '../../auth/supervisor-guard.js';
import { component, guarded, problems, securedBy, validatedAs } from '../route-schemas.js';

export interface EventExportRouteDeps extends SupervisorGuardDeps {
  database: DatabaseHandle;
  config: { env: Pick<Env, 'VIGIL_REPORTING_SETTLE_MS'> };
}

const text = (max: number) => storableString().min(1).max(max).optional();
// PostgreSQL has no year 0, which ISO 8601 (and so a JavaScript Date) has.
const instant = z.iso
  .datetime({ offset: true })
  .transform((s) => new Date(s))
  .refine((d) => d.getUTCFullYear() >= 1, 'must be in the year 1 or later')
  .optional();
const score = z.coerce.number().finite().optional();

/** The GraphQL EventFilter as query parameters (snake_case, as the rest of /api), plus the format and the cursor. */
export const eventExportQuery = z
  .object({
    format: z.enum(['ndjson', 'csv']).default('ndjson').describe('ndjson (one JSON object a line) or csv (a header row, then one row an event).'),
    after: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor returned by an export (base64url)')
      .optional()
      .describe('The `cursor` of the last row already read: the export goes on after it.'),
    device_id: text(128),
    identity: text(256),
    handprint_id: text(128),
    event: text(256).describe('Event name.'),
    tag: text(64),
    min_score: score.describe('Inclusive.'),
    max_score: score.describe('Inclusive.'),
    from: instant.describe('Inclusive, ISO 8601 with an offset.'),
    to: instant.describe('Exclusive, ISO 8601 with an offset.'),
    time_field: z.enum(['occurred', 'received']).default('occurred').describe("Which time from/to bound: the event's own or its receipt."),
    branch: text(256).describe("The device's registration branch when the event was answered."),
    role: text(256).describe("The device's registered role when the event was answered."),
    user_id: text(256).describe('The user the device was registered to when the event was answered.'),
  })
  .strict();

/** One NDJSON line of GET /api/events/export (what reporting/event-export.ts writes). */
const exportedEventSchema = z.object({
  cursor: z.string().describe('Pass as `after` to resume after this event.'),
  id: z.string(),
  name: z.string(),
  identity: z.string().nullable(),
  device_id: z.string().nullable(),
  handprint_id: z.string(),
  session_id: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  tags: z.array(z.string()),
  risk_score: z.number(),
  occurred_at: z.string(),
  received_at: z.string(),
  user_id: z.string().nullable().describe('The user the device was registered to when the event was answered.'),
  role: z.string().nullable(),
  branch: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()),
  insights: insightsSchema.describe('The answer POST /events gave, as stored.'),
});

const schema = {
  operationId: 'exportEvents',
  summary: 'Stream every matching event (viewer+), oldest received first, as NDJSON or CSV; resumable',
  description:
    'Read in pages as the client reads, so any length streams in constant memory. Each NDJSON line is an ExportedEvent; ' +
    `CSV has a header row (${CSV_COLUMNS.join(', ')}), CRLF line ends, and text starting with =, +, -, @, tab or CR prefixed with ' ` +
    'so a spreadsheet shows it instead of running it. Each line or row carries `cursor`: pass the last one read as `after` to go on ' +
    'without gap or repeat (also after a cut connection). Events received within VIGIL_REPORTING_SETTLE_MS are left for the next export.',
  security: securedBy('supervisorToken'),
  querystring: validatedAs('Invalid query', eventExportQuery),
  response: {
    200: {
      description: 'The export',
      content: {
        // The line's schema, by name: a stream is documented as text, its lines as ExportedEvent.
        'application/x-ndjson': { schema: z.string().describe('One ExportedEvent (#/components/schemas/ExportedEvent) a line.') },
        'text/csv': { schema: z.string() },
      },
    },
    ...problems([400, ...guarded], {
      400: 'Invalid parameters or a cursor this API did not return; `errors` lists each {path, message}.',
      403: 'A write or client key.',
    }),
  },
};
component('ExportedEvent', exportedEventSchema);

const CONTENT_TYPE = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8; header=present' } as const;

/**
 * GET /api/events/export (viewer+): every event matching the filter, oldest received first, streamed. Each line
 * (NDJSON) or row (CSV, column `cursor`) carries the cursor to resume after it; events received within
 * VIGIL_REPORTING_SETTLE_MS are left for the next export, so resuming never skips one.
 */
export function eventExportRoutes(app: FastifyInstance, deps: EventExportRouteDeps): void {
  const route = { schema, preValidation: requireSupervisor(deps, 'read') };
  app.withTypeProvider<ZodTypeProvider>().get('/api/events/export', route, async (request, reply) => {
    const q = request.query;
    const filter: EventFilter = {
      deviceId: q.device_id,
      identity: q.identity,
      handprintId: q.handprint_id,
      event: q.event,
      tag: q.tag,
      minScore: q.min_score,
      maxScore: q.max_score,
      from: q.from,
      to: q.to,
      timeField: q.time_field,
      branch: q.branch,
      role: q.role,
      userId: q.user_id,
    };
    const chunks = await exportEvents(deps.database.reporting, {
      filter,
      format: q.format,
      after: q.after,
      receivedBefore: settledBefore(deps.database, deps.config.env.VIGIL_REPORTING_SETTLE_MS),
    });
    // Bytes, not objects: the stream asks for the next page only when what it holds has been written out.
    const body = Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 });
    body.on('error', (error) => request.log.error({ err: error }, 'event export cut short'));
    return (
      reply
        .header('content-type', CONTENT_TYPE[q.format])
        .header('content-disposition', `attachment; filename="events.${q.format}"`)
        .header('cache-control', 'no-store')
        // A stream; the document can only show its content as text.
        .send(body as unknown as string)
    );
  });
}
