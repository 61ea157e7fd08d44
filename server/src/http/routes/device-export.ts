import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { deviceFilterOf, exportQuerySchema } from '../../registry/schemas.js';
import type { DeviceView, SupervisorDevices } from '../../registry/service.js';
import { sendExport, type ExportColumn } from '../export/stream.js';
import { parse } from './devices.js';

/** Rows per page read: large enough that a million devices is 2,000 reads, small enough to hold one at a time. */
export const DEVICE_EXPORT_PAGE = 500;

/** The columns of a device export: the REST view's fields, in its order. */
const columns: ExportColumn<DeviceView>[] = (
  [
    'device_id', 'user_id', 'role', 'metadata', 'status', 'registered_at', 'deactivated_at', 'deactivation_reason',
    'first_seen', 'last_seen', 'handprint_id', 'current_tags', 'risk_score', 'model', 'os_version',
  ] as const
).map((name) => ({ name, value: (d: DeviceView) => d[name] }));

/**
 * GET /api/devices/export?format=ndjson|csv&<the /api/devices filters and sort>&after=<cursor>: every device that
 * matches, streamed in pages from the reporting connections. Each row carries `cursor`, the `after` that resumes
 * right after it.
 */
export function deviceExportRoute(app: FastifyInstance, deps: { supervisorDevices: SupervisorDevices; preHandler: preHandlerAsyncHookHandler }): void {
  app.get('/api/devices/export', { preHandler: deps.preHandler }, async (request, reply) => {
    const q = parse(exportQuerySchema, request.query, 'Invalid query');
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
