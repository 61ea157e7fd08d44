import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  bulkDeactivateBody,
  bulkTransferBody,
  deviceFilterOf,
  listQuerySchema,
  refuseTooManyDevices,
  supervisorDeactivateBody,
  supervisorReactivateBody,
  supervisorTransferBody,
} from '../../registry/schemas.js';
import type { SupervisorDevices } from '../../registry/service.js';
import type { Command } from '../../registry/state.js';
import { requireSupervisor, type SupervisorGuardDeps } from '../../auth/supervisor-guard.js';
import { bulkMoveSchema, deviceDetailSchema, deviceMoveSchema, devicePageSchema } from '../../registry/view-schemas.js';
import { bindingView, deviceBindingSchema } from '../../binding/schemas.js';
import { bindingsOf } from '../../binding/store.js';
import type { DatabaseHandle } from '../../db/handle.js';
import { guarded, json, problems, securedBy, toDevice, validatedAs, withBody } from '../route-schemas.js';
import { deviceIdPath } from './devices.js';
import { deviceExportRoute } from './device-export.js';

export interface SupervisorDeviceRouteDeps extends SupervisorGuardDeps {
  supervisorDevices: SupervisorDevices;
  database: DatabaseHandle;
}

/** One device as GET /api/devices/{device_id} answers it: the registry's detail and the device's key binding. */
export const supervisorDeviceDetailSchema = deviceDetailSchema.extend({
  binding: deviceBindingSchema.describe('The key the device is bound to (README, "Device binding"); null when not bound.'),
});

/** Refuses an over-long id list before validating each id: the answer names the limit, not 501 field errors. */
async function bounded(request: FastifyRequest): Promise<void> {
  const ids = (request.body as { device_ids?: unknown } | null)?.device_ids;
  if (Array.isArray(ids)) refuseTooManyDevices(ids.length, 'device_ids');
}

/**
 * The supervisor interface (README: Supervisor REST API). Authorization: Bearer <supervisor token or console session>.
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
export function supervisorDeviceRoutes(fastify: FastifyInstance, deps: SupervisorDeviceRouteDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Credentials before validation, as on every route: preValidation, not preHandler.
  const read = requireSupervisor(deps, 'read');
  const manage = requireSupervisor(deps, 'manage_devices');

  const list = {
    operationId: 'listDevices',
    summary: 'List devices (viewer+), filtered and keyset-paged',
    security,
    querystring: validatedAs('Invalid query', listQuerySchema),
    response: { 200: json('A page', devicePageSchema), ...supervisorErrors },
  };
  app.get('/api/devices', { schema: list, links: { 200: toDevice('/devices/0/device_id', 'getDevice') }, preValidation: read }, async (request) => {
    const q = request.query;
    return deps.supervisorDevices.list({ filter: deviceFilterOf(q), sort: q.sort, limit: q.limit, cursor: q.cursor });
  });

  deviceExportRoute(app, { ...deps, preValidation: read });

  const detail = {
    operationId: 'getDevice',
    summary: 'One device with its audit history (viewer+)',
    security,
    params: deviceIdPath,
    response: { 200: json('The device', supervisorDeviceDetailSchema), ...supervisorErrors, ...problems([404], { 404: 'No such device.' }) },
  };
  app.get('/api/devices/:device_id', { schema: detail, preValidation: read }, async (request) => {
    const deviceId = request.params.device_id;
    const [device, bindings] = await Promise.all([deps.supervisorDevices.detail(deviceId), bindingsOf(deps.database.reporting, [deviceId])]);
    return { ...device, binding: bindingView(bindings.get(deviceId)) };
  });

  /** A single-device move: POST /api/devices/{device_id}/<verb>, answered with the device after it and `change`. */
  const moveRoute = <B extends z.ZodType>(verb: string, schema: ReturnType<typeof move<B>>, links: string[], command: (body: z.output<B>) => Command) =>
    app.post(`/api/devices/:device_id/${verb}`, { schema, links: { 200: toDevice('/device_id', ...links) }, preValidation: manage }, async (request) =>
      deps.supervisorDevices.move(request.params.device_id, command(request.body as z.output<B>), request.principal!),
    );

  moveRoute(
    'deactivate',
    move('deactivateDevice', 'Deactivate (supervisor+); idempotent', validatedAs('Invalid deactivation', supervisorDeactivateBody)),
    ['getDevice', 'reactivateDevice'],
    (body) => ({ type: 'deactivate', reason: body.reason, by: body.by }),
  );
  moveRoute(
    'transfer',
    move('transferDevice', 'Transfer to another user (supervisor+); starts a fresh association', validatedAs('Invalid transfer', supervisorTransferBody)),
    ['getDevice', 'deactivateDevice'],
    (body) => ({ type: 'transfer', newUserId: body.new_user_id, by: body.by }),
  );
  moveRoute(
    'reactivate',
    move('reactivateDevice', 'Reactivate a deactivated device (supervisor+); idempotent', validatedAs('Invalid reactivation', supervisorReactivateBody)),
    ['getDevice'],
    (body) => ({ type: 'reactivate', reason: body.reason, by: body.by }),
  );

  const bulkDeactivate = bulk('deactivateDevices', 'Deactivate many devices (supervisor+)', validatedAs('Invalid bulk deactivation', bulkDeactivateBody));
  app.post('/api/devices/deactivate', { schema: bulkDeactivate, preValidation: [manage, bounded] }, async (request) => {
    const body = request.body;
    return deps.supervisorDevices.bulk(body.device_ids, { type: 'deactivate', reason: body.reason, by: body.by }, request.principal!);
  });

  const bulkTransfer = bulk('transferDevices', 'Transfer many devices to one user (supervisor+)', validatedAs('Invalid bulk transfer', bulkTransferBody));
  app.post('/api/devices/transfer', { schema: bulkTransfer, preValidation: [manage, bounded] }, async (request) => {
    const body = request.body;
    return deps.supervisorDevices.bulk(body.device_ids, { type: 'transfer', newUserId: body.new_user_id, by: body.by }, request.principal!);
  });
}

const security = securedBy('supervisorToken');
const supervisorErrors = problems([400, ...guarded], { 403: 'A write or client key, or a role without the permission.' });
const moveErrors = {
  ...problems([...withBody, ...guarded], { 403: 'A write or client key, or a role below supervisor.' }),
  ...problems([404, 409], { 404: 'No such device.', 409: 'device_not_registered or device_deactivated.' }),
};
const bulkErrors = problems([...withBody, ...guarded], {
  400: 'Invalid fields (`validation_failed`, with `errors`), or more ids than one call moves (`too_many_devices`).',
  403: 'A write or client key, or a role below supervisor.',
});

/** A single-device move: the device after it, with `change`. */
const move = <B extends z.ZodType>(operationId: string, summary: string, body: B) => ({
  operationId,
  summary,
  security,
  params: deviceIdPath,
  body,
  response: { 200: json('The updated device, with `change`: what the move did', deviceMoveSchema), ...moveErrors },
});

const bulk = <B extends z.ZodType>(operationId: string, summary: string, body: B) => ({
  operationId,
  summary: `${summary}; each in its own transaction, a result per distinct id`,
  security,
  body,
  response: { 200: json('One result per distinct id, in the order given', bulkMoveSchema), ...bulkErrors },
});
