import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { keyActor } from '../../registry/actor.js';
import { refusalError } from '../../registry/refusals.js';
import type { RegistryRepository } from '../../registry/repository.js';
import { deviceDeactivateBody, deviceIdParam, registerBody } from '../../registry/schemas.js';
import { registrationResult, registrationStatus } from '../../registry/views.js';
import { requireKey, type GuardDeps } from '../guards.js';
import { validationError } from '../../errors.js';

export interface DeviceRouteDeps extends GuardDeps {
  registry: RegistryRepository;
}

type Params = { device_id: string };

export function parse<T extends z.ZodType>(schema: T, value: unknown, what: string, prefix = ''): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, what, prefix);
  return parsed.data;
}

/**
 * Device-side registry routes, called by the Android library with its client key (or by the app's backend with a
 * write key, as in the spec's mobile pattern).
 *
 * | Route                                  | Body                 | Answer                                          |
 * |----------------------------------------|----------------------|-------------------------------------------------|
 * | POST /devices/{device_id}/register     | {user_id, metadata?} | 200 DeviceRegistration; 409 other user / deactivated |
 * | GET  /devices/{device_id}/registration | —                    | 200 registration status (also when unregistered) |
 * | POST /devices/{device_id}/deactivate   | {reason}             | 200 registration status; 404 unknown; 409 not registered |
 */
export function deviceRoutes(app: FastifyInstance, deps: DeviceRouteDeps): void {
  const guard = requireKey(deps, ['client', 'write']);

  app.post<{ Params: Params }>('/devices/:device_id/register', { preHandler: guard }, async (request) => {
    const deviceId = parse(deviceIdParam, request.params.device_id, 'Invalid device_id', 'device_id');
    const body = parse(registerBody, request.body, 'Invalid registration');
    const outcome = await deps.registry.apply(
      deviceId,
      { type: 'register', userId: body.user_id, metadata: body.metadata ?? {} },
      keyActor(request.apiKey!),
    );
    if (!outcome.ok) throw refusalError(deviceId, outcome);
    return registrationResult(outcome.registration);
  });

  app.get<{ Params: Params }>('/devices/:device_id/registration', { preHandler: guard }, async (request) => {
    const deviceId = parse(deviceIdParam, request.params.device_id, 'Invalid device_id', 'device_id');
    return registrationStatus(deviceId, await deps.registry.get(deviceId));
  });

  app.post<{ Params: Params }>('/devices/:device_id/deactivate', { preHandler: guard }, async (request) => {
    const deviceId = parse(deviceIdParam, request.params.device_id, 'Invalid device_id', 'device_id');
    const body = parse(deviceDeactivateBody, request.body, 'Invalid deactivation');
    const outcome = await deps.registry.apply(deviceId, { type: 'deactivate', reason: body.reason, by: null }, keyActor(request.apiKey!));
    if (!outcome.ok) throw refusalError(deviceId, outcome);
    return registrationStatus(deviceId, outcome.registration);
  });
}
