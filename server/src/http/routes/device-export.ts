import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceFilterOf, exportQuerySchema } from '../../registry/schemas.js';
import type { DeviceView, SupervisorDevices } from '../../registry/service.js';
import { sendExport, type ExportColumn } from '../export/stream.js';
import { guarded, problems, securedBy, textAnswer, validatedAs } from '../route-schemas.js';

/** Rows per page read: large enough that a million devices is 2,000 reads, small enough to hold one at a time. */
export const DEVICE_EXPORT_PAGE = 500;

/** The columns of a device export: the REST view's fields, in its order. */
const columns: ExportColumn<DeviceView>[] = (
  [
    'device_id',
    'user_id',
    'role',
    'metadata',
    'status',
    'registered_at',
    'deactivated_at',
    'deactivation_reason',
    'first_seen',
    'last_seen',
    'handprint_id',
    'current_tags',
    'risk_score',
    'model',
    'os_version',
  ] as const
).map((name) => ({ name, value: (d: DeviceView) => d[name] }));

/**
 * GET /api/devices/export?format=ndjson|csv&<the /api/devices filters and sort>&after=<cursor>: every device that
 * matches, streamed in pages from the reporting connections. Each row carries `cursor`, the `after` that resumes
 * right after it.
 */
const schema = {
  operationId: 'exportDevices',
  summary: 'Every device matching the /api/devices filters (viewer+), streamed as NDJSON or CSV',
  description:
    'Read in keyset pages on the reporting connections as the client takes the data (constant memory). Each row carries ' +
    '`cursor`: pass the last one received as `after` to resume. CSV: RFC 4180, a header row (repeated on resume), ' +
    "text cells starting with =, +, -, @, tab or CR prefixed with ' so spreadsheets never run them; metadata and " +
    'current_tags as JSON. A failure after the first row cuts the stream.',
  security: securedBy('supervisorToken'),
  querystring: validatedAs('Invalid query', exportQuerySchema),
  response: {
    200: textAnswer('The export', 'application/x-ndjson', 'text/csv'),
    ...problems([400, ...guarded], { 403: 'A write or client key, or a role without the permission.' }),
  },
};

export function deviceExportRoute(
  app: FastifyInstance<any, any, any, any, ZodTypeProvider>,
  deps: { supervisorDevices: SupervisorDevices; preValidation: preValidationAsyncHookHandler },
): void {
  app.get('/api/devices/export', { schema, preValidation: deps.preValidation }, async (request, reply) => {
    const q = request.query;
    const filter = deviceFilterOf(q);
    return sendExport(reply, {
      format: q.format,
      filename: 'devices',
      columns,
      after: q.after,
      read: (cursor) => deps.supervisorDevices.page({ filter, sort: q.sort, limit: DEVICE_EXPORT_PAGE, cursor, cursorField: 'after' }),
    });
  });
}
