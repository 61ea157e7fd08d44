import type { FastifyInstance } from 'fastify';
import { VigilError } from '../../errors.js';
import {
  bulkDeactivateBody,
  bulkTransferBody,
  deviceFilterOf,
  deviceIdParam,
  listQuerySchema,
  registryLimits,
  supervisorDeactivateBody,
  supervisorReactivateBody,
  supervisorTransferBody,
} from '../../registry/schemas.js';
import type { SupervisorDevices } from '../../registry/service.js';
import { requireSupervisor, type SupervisorGuardDeps } from '../../auth/supervisor-guard.js';
import { parse } from './devices.js';
import { deviceExportRoute } from './device-export.js';

export interface SupervisorDeviceRouteDeps extends SupervisorGuardDeps {
  supervisorDevices: SupervisorDevices;
}

type Params = { device_id: string };

/** Refuses an over-long id list before validating each id: the answer names the limit, not 501 field errors. */
function bounded(body: unknown): unknown {
  const ids = (body as { device_ids?: unknown } | null)?.device_ids;
  if (Array.isArray(ids) && ids.length > registryLimits.bulkMaxDevices) {
    throw new VigilError('too_many_devices', `${ids.length} device ids; one call moves at most ${registryLimits.bulkMaxDevices}`, {
      errors: [{ path: 'device_ids', message: `at most ${registryLimits.bulkMaxDevices} ids` }],
    });
  }
  return body;
}

/**
 * The spec's supervisor interface. Authorization: Bearer <supervisor token or console session>.
 *
 * | Route                                    | Role        | Body                          | Answer                              |
 * |------------------------------------------|-------------|-------------------------------|-------------------------------------|
 * | GET  /api/devices                        | viewer+     | —                             | {devices, next_cursor}              |
 * | GET  /api/devices/export                 | viewer+     | —                             | NDJSON or CSV stream (device-export) |
 * | GET  /api/devices/{device_id}            | viewer+     | —                             | device with history                 |
 * | POST /api/devices/{device_id}/deactivate | supervisor+ | {reason, by}                  | the updated device and its change   |
 * | POST /api/devices/{device_id}/transfer   | supervisor+ | {new_user_id, by}             | the updated device and its change   |
 * | POST /api/devices/{device_id}/reactivate | supervisor+ | {reason, by}                  | the updated device and its change   |
 * | POST /api/devices/deactivate             | supervisor+ | {device_ids, reason, by}      | {results: [per device]}             |
 * | POST /api/devices/transfer               | supervisor+ | {device_ids, new_user_id, by} | {results: [per device]}             |
 */
export function supervisorDeviceRoutes(app: FastifyInstance, deps: SupervisorDeviceRouteDeps): void {
  const read = requireSupervisor(deps, 'read');
  const manage = requireSupervisor(deps, 'manage_devices');
  const id = (params: Params) => parse(deviceIdParam, params.device_id, 'Invalid device_id', 'device_id');

  app.get('/api/devices', { preHandler: read }, async (request) => {
    const q = parse(listQuerySchema, request.query, 'Invalid query');
    return deps.supervisorDevices.list({ filter: deviceFilterOf(q), sort: q.sort, limit: q.limit, cursor: q.cursor });
  });

  deviceExportRoute(app, { ...deps, preHandler: read });

  app.get<{ Params: Params }>('/api/devices/:device_id', { preHandler: read }, async (request) =>
    deps.supervisorDevices.detail(id(request.params)),
  );

  app.post<{ Params: Params }>('/api/devices/:device_id/deactivate', { preHandler: manage }, async (request) => {
    const deviceId = id(request.params);
    const body = parse(supervisorDeactivateBody, request.body, 'Invalid deactivation');
    return deps.supervisorDevices.move(deviceId, { type: 'deactivate', reason: body.reason, by: body.by }, request.principal!);
  });

  app.post<{ Params: Params }>('/api/devices/:device_id/transfer', { preHandler: manage }, async (request) => {
    const deviceId = id(request.params);
    const body = parse(supervisorTransferBody, request.body, 'Invalid transfer');
    return deps.supervisorDevices.move(deviceId, { type: 'transfer', newUserId: body.new_user_id, by: body.by }, request.principal!);
  });

  app.post<{ Params: Params }>('/api/devices/:device_id/reactivate', { preHandler: manage }, async (request) => {
    const deviceId = id(request.params);
    const body = parse(supervisorReactivateBody, request.body, 'Invalid reactivation');
    return deps.supervisorDevices.move(deviceId, { type: 'reactivate', reason: body.reason, by: body.by }, request.principal!);
  });

  app.post('/api/devices/deactivate', { preHandler: manage }, async (request) => {
    const body = parse(bulkDeactivateBody, bounded(request.body), 'Invalid bulk deactivation');
    return deps.supervisorDevices.bulk(body.device_ids, { type: 'deactivate', reason: body.reason, by: body.by }, request.principal!);
  });

  app.post('/api/devices/transfer', { preHandler: manage }, async (request) => {
    const body = parse(bulkTransferBody, bounded(request.body), 'Invalid bulk transfer');
    return deps.supervisorDevices.bulk(body.device_ids, { type: 'transfer', newUserId: body.new_user_id, by: body.by }, request.principal!);
  });
}
