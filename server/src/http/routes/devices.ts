import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceKeyInput, signatureHeaderFields } from '../../binding/schemas.js';
import type { DeviceBinding, PresentedKey } from '../../binding/binding.js';
import { keyActor } from '../../registry/actor.js';
import { refusalError } from '../../registry/refusals.js';
import type { RegistryRepository } from '../../registry/repository.js';
import { deviceDeactivateBody, deviceParams, registerBody } from '../../registry/schemas.js';
import { registrationSchema, registrationStatusSchema } from '../../registry/view-schemas.js';
import { registrationResult, registrationStatus } from '../../registry/views.js';
import { bodyDigest, deviceSignatureOf } from '../body-digest.js';
import { requireKey, type GuardDeps } from '../guards.js';
import { checkedByHandler, guarded, json, problem, problems, securedBy, toDevice, validatedAs, withBody } from '../route-schemas.js';

export interface DeviceRouteDeps extends GuardDeps {
  registry: RegistryRepository;
  /** Device binding: a bound device's registration changes must be signed by its key (README, "Device binding"). */
  binding: DeviceBinding;
}

/** The path of every device route, `device_id` checked by the registry's rule. */
export const deviceIdPath = validatedAs('Invalid device_id', deviceParams);

const security = securedBy('clientKey', 'writeKey');

/** The registration body, with the key a device binds itself to (Android library, README "Device binding"). */
const registerWithKey = registerBody.extend({ device_key: deviceKeyInput.optional() });

const signatureHeaders = checkedByHandler(z.object(signatureHeaderFields));

/** The binding's checks for a move requested by this request, run in the move's transaction. */
const moveCheck = (deps: DeviceRouteDeps, deviceId: string, request: FastifyRequest, presented?: PresentedKey) =>
  deps.binding.moveCheck({ deviceId, signature: deviceSignatureOf(request), keyKind: request.apiKey!.kind, presented });
const keyErrors = problems([400, ...guarded], { 400: 'Invalid device_id; `errors` lists each {path, message}.', 403: 'Not a write or client key.' });
const keyBodyErrors = problems([...withBody, ...guarded], { 403: 'Not a write or client key.' });

/**
 * Device-side registry routes, called by the Android library with its client key (or by the app's backend with a
 * write key, as in the mobile pattern the README describes).
 *
 * | Route                                  | Body                 | Answer                                          |
 * |----------------------------------------|----------------------|-------------------------------------------------|
 * | POST /devices/{device_id}/register     | {user_id, metadata?} | 200 DeviceRegistration; 409 other user / deactivated |
 * | GET  /devices/{device_id}/registration | —                    | 200 registration status (also when unregistered) |
 * | POST /devices/{device_id}/deactivate   | {reason}             | 200 registration status; 404 unknown; 409 not registered |
 */
export function deviceRoutes(fastify: FastifyInstance, deps: DeviceRouteDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Credentials before validation: a caller without them learns nothing about what a valid request looks like.
  const guard = requireKey(deps, ['client', 'write']);

  const register = {
    operationId: 'registerDevice',
    summary: 'Register a device to a user (role from metadata.role); again by the same user is idempotent',
    security,
    params: deviceIdPath,
    headers: signatureHeaders,
    body: validatedAs('Invalid registration', registerWithKey),
    response: {
      200: json('The DeviceRegistration', registrationSchema),
      ...keyBodyErrors,
      403: problem('Not a write or client key; or device_key_mismatch: the device is bound to a key that did not sign this request.'),
      409: problem('device_registered_to_other_user (the attempt is recorded) or device_deactivated.'),
    },
  };
  const links = { 200: toDevice('/device_id', 'getDeviceRegistration', 'deactivateOwnDevice', 'getDevice', 'deactivateDevice', 'transferDevice') };
  app.post('/devices/:device_id/register', { schema: register, links, preParsing: bodyDigest, preValidation: guard }, async (request) => {
    const deviceId = request.params.device_id;
    const body = request.body;
    const command = { type: 'register', userId: body.user_id, metadata: body.metadata ?? {} } as const;
    const outcome = await deps.registry.apply(deviceId, command, keyActor(request.apiKey!), moveCheck(deps, deviceId, request, body.device_key));
    if (!outcome.ok) throw refusalError(deviceId, outcome);
    return registrationResult(outcome.registration);
  });

  const registration = {
    operationId: 'getDeviceRegistration',
    summary: "A device's registration (also when unregistered)",
    security,
    params: deviceIdPath,
    response: { 200: json('Registration status', registrationStatusSchema), ...keyErrors },
  };
  app.get('/devices/:device_id/registration', { schema: registration, preValidation: guard }, async (request) => {
    const deviceId = request.params.device_id;
    return registrationStatus(deviceId, await deps.registry.get(deviceId));
  });

  const deactivate = {
    operationId: 'deactivateOwnDevice',
    summary: 'Deactivate this device with a reason; repeating is idempotent',
    security,
    params: deviceIdPath,
    headers: signatureHeaders,
    body: validatedAs('Invalid deactivation', deviceDeactivateBody),
    response: {
      200: json('Registration status', registrationStatusSchema),
      ...keyBodyErrors,
      ...problems([404, 409], { 404: 'Unknown device.', 409: 'device_not_registered.' }),
      403: problem('Not a write or client key; or device_key_mismatch: the device is bound to a key that did not sign this request.'),
    },
  };
  const deactivateLinks = { 200: toDevice('/device_id', 'getDevice', 'reactivateDevice') };
  app.post('/devices/:device_id/deactivate', { schema: deactivate, links: deactivateLinks, preParsing: bodyDigest, preValidation: guard }, async (request) => {
    const deviceId = request.params.device_id;
    const command = { type: 'deactivate', reason: request.body.reason, by: null } as const;
    const outcome = await deps.registry.apply(deviceId, command, keyActor(request.apiKey!), moveCheck(deps, deviceId, request));
    if (!outcome.ok) throw refusalError(deviceId, outcome);
    return registrationStatus(deviceId, outcome.registration);
  });
}
