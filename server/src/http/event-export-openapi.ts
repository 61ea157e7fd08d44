import { z } from 'zod';
import { insightsSchema } from '../pipeline/insights.js';
import { CSV_COLUMNS } from '../reporting/event-export.js';
import { guarded, problems, requestSchema, responseSchema } from './openapi-kit.js';
import { eventExportQuery } from './routes/event-export.js';

/** One NDJSON line of GET /api/events/export (documentation of what event-export.ts writes). */
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

/** The events export's part of /openapi.json. */
export function eventExportOpenApi() {
  return {
    schemas: { ExportedEvent: responseSchema(exportedEventSchema) },
    paths: {
      '/api/events/export': {
        get: {
          operationId: 'exportEvents',
          summary: 'Stream every matching event (viewer+), oldest received first, as NDJSON or CSV; resumable',
          description:
            'Read in pages as the client reads, so any length streams in constant memory. Each NDJSON line is an ExportedEvent; ' +
            `CSV has a header row (${CSV_COLUMNS.join(', ')}), CRLF line ends, and text starting with =, +, -, @, tab or CR prefixed with ' ` +
            'so a spreadsheet shows it instead of running it. Each line or row carries `cursor`: pass the last one read as `after` to go on ' +
            'without gap or repeat (also after a cut connection). Events received within VIGIL_REPORTING_SETTLE_MS are left for the next export.',
          security: [{ supervisorToken: [] }],
          parameters: Object.entries(requestSchema(eventExportQuery).properties as Record<string, unknown>).map(([name, schema]) => ({
            name,
            in: 'query',
            required: false,
            schema,
          })),
          responses: {
            '200': {
              description: 'The export',
              content: {
                'application/x-ndjson': { schema: { type: 'string', description: 'One ExportedEvent (#/components/schemas/ExportedEvent) a line.' } },
                'text/csv': { schema: { type: 'string' } },
              },
            },
            ...problems([400, ...guarded], { 400: 'Invalid parameters or a cursor this API did not return; `errors` lists each {path, message}.', 403: 'A write or client key.' }),
          },
        },
      },
    },
  };
}
