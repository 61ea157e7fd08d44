import type { FastifyInstance } from 'fastify';
import { deviceIdParam, listQuerySchema, supervisorDeactivateBody, supervisorReactivateBody, supervisorTransferBody } from '../../registry/schemas.js';
import type { SupervisorDevices } from '../../registry/service.js';
import { requireSupervisor, type SupervisorGuardDeps } from '../supervisor-guard.js';
import { parse } from './devices.js';

export interface SupervisorDeviceRouteDeps extends SupervisorGuardDeps {
  supervisorDevices: SupervisorDevices;
}

type Params = { device_id: string };

/**
 * The spec's supervisor interface. Authorization: Bearer <supervisor token or console session>.
 *
 * | Route                                    | Role        | Body                 | Answer                              |
 * |------------------------------------------|-------------|----------------------|-------------------------------------|
 * | GET  /api/devices                        | viewer+     | —                    | {devices, next_cursor}              |
 * | GET  /api/devices/{device_id}            | viewer+     | —                    | device with history                 |
 * | POST /api/devices/{device_id}/deactivate | supervisor+ | {reason, by}         | the updated device                  |
 * | POST /api/devices/{device_id}/transfer   | supervisor+ | {new_user_id, by}    | the updated device                  |
 * | POST /api/devices/{device_id}/reactivate | supervisor+ | {reason, by}         | the updated device                  |
 */
export function supervisorDeviceRoutes(app: FastifyInstance, deps: SupervisorDeviceRouteDeps): void {
  const read = requireSupervisor(deps, 'read');
  const manage = requireSupervisor(deps, 'manage_devices');
  const id = (params: Params) => parse(deviceIdParam, params.device_id, 'Invalid device_id', 'device_id');

  app.get('/api/devices', { preHandler: read }, async (request) => {
    const q = parse(listQuerySchema, request.query, 'Invalid query');
    return deps.supervisorDevices.list({
      filter: { role: q.role, branch: q.branch, status: q.status, userId: q.user_id, tag: q.tag },
      sort: q.sort,
      limit: q.limit,
      cursor: q.cursor,
    });
  });

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
}
