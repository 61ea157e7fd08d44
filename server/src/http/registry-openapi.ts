import { z } from 'zod';
import { supervisorRoles } from '../auth/roles.js';
import {
  bulkDeactivateBody,
  bulkTransferBody,
  deviceDeactivateBody,
  exportQuerySchema,
  listQuerySchema,
  registerBody,
  supervisorDeactivateBody,
  supervisorReactivateBody,
  supervisorTransferBody,
} from '../registry/schemas.js';
import {
  auditRecordSchema,
  bulkMoveSchema,
  deviceDetailSchema,
  deviceMoveSchema,
  devicePageSchema,
  registrationSchema,
  registrationStatusSchema,
  supervisorDeviceSchema,
} from '../registry/view-schemas.js';
import { guarded, jsonBody, ok, problem, problems, ref, requestSchema, responseSchema, withBody } from './openapi-kit.js';
import { loginBody } from './routes/auth.js';

const body = (name: string) => jsonBody(ref(name));
const deviceParam = { name: 'device_id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 128 } };

const supervisor = z.object({ id: z.string(), username: z.string(), role: z.enum(supervisorRoles) });
const sessionSchema = z.object({ token: z.string(), session_id: z.string(), expires_at: z.string(), supervisor });
const meSchema = supervisor.extend({ credential: z.object({ id: z.string(), kind: z.enum(['token', 'session']) }) });

const keyErrors = problems([400, ...guarded], { 400: 'Invalid device_id; `errors` lists each {path, message}.', 403: 'Not a write or client key.' });
const keyBodyErrors = problems([...withBody, ...guarded], { 403: 'Not a write or client key.' });
const supervisorErrors = problems([400, ...guarded], { 403: 'A write or client key, or a role without the permission.' });
const moveErrors = {
  ...problems([...withBody, ...guarded], { 403: 'A write or client key, or a role below supervisor.' }),
  ...problems([404, 409], { 404: 'No such device.', 409: 'device_not_registered or device_deactivated.' }),
};

const bulkErrors = problems([...withBody, ...guarded], {
  400: 'Invalid fields (`validation_failed`, with `errors`), or more ids than one call moves (`too_many_devices`).',
  403: 'A write or client key, or a role below supervisor.',
});

/** Query parameters from the zod schema that validates them. */
function queryParameters(schema: z.ZodType) {
  const json = requestSchema(schema) as { properties: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties).map(([name, property]) => ({ name, in: 'query', required: (json.required ?? []).includes(name), schema: property }));
}

const bulkMove = (operationId: string, summary: string, schema: string) => ({
  post: {
    operationId,
    summary: `${summary}; each in its own transaction, a result per distinct id`,
    security: [{ supervisorToken: [] }],
    requestBody: body(schema),
    responses: { '200': ok('One result per distinct id, in the order given', ref('BulkMoveResults')), ...bulkErrors },
  },
});

/** Links from an answer carrying a device_id to the operations on that device, for stateful clients (and fuzzers). */
const toDevice = (pointer: string, ...operationIds: string[]) =>
  Object.fromEntries(operationIds.map((id) => [id, { operationId: id, parameters: { device_id: `$response.body#${pointer}` } }]));

/** The registry, supervisor and GraphQL parts of /openapi.json, from the same zod schemas that validate requests. */
export function registryOpenApi() {
  const device = { security: [{ clientKey: [] }, { writeKey: [] }], parameters: [deviceParam] };
  const supervised = { security: [{ supervisorToken: [] }], parameters: [deviceParam] };
  const move = (operationId: string, summary: string, schema: string, links: Record<string, unknown>) => ({
    post: {
      ...supervised,
      operationId,
      summary,
      requestBody: body(schema),
      responses: { '200': { ...ok('The updated device, with `change`: what the move did', ref('SupervisorDeviceMove')), links }, ...moveErrors },
    },
  });
  return {
    securitySchemes: {
      supervisorToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'A supervisor API token (vigil_st_…) or console session (vigil_ss_… from POST /api/auth/login).',
      },
    },
    schemas: {
      RegisterDevice: requestSchema(registerBody),
      DeviceDeactivate: requestSchema(deviceDeactivateBody),
      SupervisorDeactivate: requestSchema(supervisorDeactivateBody),
      SupervisorReactivate: requestSchema(supervisorReactivateBody),
      SupervisorTransfer: requestSchema(supervisorTransferBody),
      BulkDeactivate: requestSchema(bulkDeactivateBody),
      BulkTransfer: requestSchema(bulkTransferBody),
      SupervisorDeviceMove: responseSchema(deviceMoveSchema),
      BulkMoveResults: responseSchema(bulkMoveSchema),
      Login: requestSchema(loginBody),
      DeviceRegistration: responseSchema(registrationSchema),
      RegistrationStatus: responseSchema(registrationStatusSchema),
      SupervisorDevice: responseSchema(supervisorDeviceSchema),
      DevicePage: responseSchema(devicePageSchema),
      DeviceDetail: responseSchema(deviceDetailSchema),
      AuditRecord: responseSchema(auditRecordSchema),
      Session: responseSchema(sessionSchema),
      Me: responseSchema(meSchema),
    },
    paths: {
      '/devices/{device_id}/register': {
        post: {
          ...device,
          operationId: 'registerDevice',
          summary: 'Register a device to a user (role from metadata.role); again by the same user is idempotent',
          requestBody: body('RegisterDevice'),
          responses: {
            '200': {
              ...ok('The DeviceRegistration', ref('DeviceRegistration')),
              links: toDevice('/device_id', 'getDeviceRegistration', 'deactivateOwnDevice', 'getDevice', 'deactivateDevice', 'transferDevice'),
            },
            ...keyBodyErrors,
            '409': problem('device_registered_to_other_user (the attempt is recorded) or device_deactivated.'),
          },
        },
      },
      '/devices/{device_id}/registration': {
        get: {
          ...device,
          operationId: 'getDeviceRegistration',
          summary: "A device's registration (also when unregistered)",
          responses: { '200': ok('Registration status', ref('RegistrationStatus')), ...keyErrors },
        },
      },
      '/devices/{device_id}/deactivate': {
        post: {
          ...device,
          operationId: 'deactivateOwnDevice',
          summary: 'Deactivate this device with a reason; repeating is idempotent',
          requestBody: body('DeviceDeactivate'),
          responses: {
            '200': { ...ok('Registration status', ref('RegistrationStatus')), links: toDevice('/device_id', 'getDevice', 'reactivateDevice') },
            ...keyBodyErrors,
            ...problems([404, 409], { 404: 'Unknown device.', 409: 'device_not_registered.' }),
          },
        },
      },
      '/api/devices': {
        get: {
          operationId: 'listDevices',
          summary: 'List devices (viewer+), filtered and keyset-paged',
          security: [{ supervisorToken: [] }],
          parameters: queryParameters(listQuerySchema),
          responses: {
            '200': { ...ok('A page', ref('DevicePage')), links: toDevice('/devices/0/device_id', 'getDevice') },
            ...supervisorErrors,
          },
        },
      },
      '/api/devices/export': {
        get: {
          operationId: 'exportDevices',
          summary: 'Every device matching the /api/devices filters (viewer+), streamed as NDJSON or CSV',
          description:
            'Read in keyset pages on the reporting connections as the client takes the data (constant memory). Each row carries ' +
            '`cursor`: pass the last one received as `after` to resume. CSV: RFC 4180, a header row (repeated on resume), ' +
            "text cells starting with =, +, -, @, tab or CR prefixed with ' so spreadsheets never run them; metadata and " +
            'current_tags as JSON. A failure after the first row cuts the stream.',
          security: [{ supervisorToken: [] }],
          parameters: queryParameters(exportQuerySchema),
          responses: {
            '200': {
              description: 'The export',
              content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
            },
            ...supervisorErrors,
          },
        },
      },
      '/api/devices/deactivate': bulkMove('deactivateDevices', 'Deactivate many devices (supervisor+)', 'BulkDeactivate'),
      '/api/devices/transfer': bulkMove('transferDevices', 'Transfer many devices to one user (supervisor+)', 'BulkTransfer'),
      '/api/devices/{device_id}': {
        get: {
          ...supervised,
          operationId: 'getDevice',
          summary: 'One device with its audit history (viewer+)',
          responses: { '200': ok('The device', ref('DeviceDetail')), ...supervisorErrors, ...problems([404], { 404: 'No such device.' }) },
        },
      },
      '/api/devices/{device_id}/deactivate': move(
        'deactivateDevice',
        'Deactivate (supervisor+); idempotent',
        'SupervisorDeactivate',
        toDevice('/device_id', 'getDevice', 'reactivateDevice'),
      ),
      '/api/devices/{device_id}/transfer': move(
        'transferDevice',
        'Transfer to another user (supervisor+); starts a fresh association',
        'SupervisorTransfer',
        toDevice('/device_id', 'getDevice', 'deactivateDevice'),
      ),
      '/api/devices/{device_id}/reactivate': move(
        'reactivateDevice',
        'Reactivate a deactivated device (supervisor+); idempotent',
        'SupervisorReactivate',
        toDevice('/device_id', 'getDevice'),
      ),
      '/api/auth/login': {
        post: {
          operationId: 'login',
          summary: 'Sign in: a console session token, expiring after VIGIL_SESSION_TTL_HOURS',
          requestBody: body('Login'),
          responses: {
            '200': ok('Session', ref('Session')),
            ...problems([...withBody, 401, 403, 429, 503], {
              401: 'Wrong username or password.',
              403: 'The account is disabled (said only after the right password).',
              429: 'Too many attempts from this client address, or from it for this username; see Retry-After.',
            }),
          },
        },
      },
      '/api/auth/logout': {
        post: {
          operationId: 'logout',
          summary: 'End the session at once (an API token stays valid: revoke it with `vigil tokens revoke`)',
          security: [{ supervisorToken: [] }],
          responses: { '200': ok('Done', responseSchema(z.object({ logged_out: z.boolean() }))), ...problems(guarded) },
        },
      },
      '/api/auth/me': {
        get: { operationId: 'me', summary: 'The signed-in supervisor', security: [{ supervisorToken: [] }], responses: { '200': ok('Supervisor', ref('Me')), ...problems(guarded) } },
      },
      '/graphql': {
        post: {
          operationId: 'graphql',
          summary: 'GraphQL (schema: server/schema.graphql); errors carry extensions.code from the problem catalog',
          security: [{ supervisorToken: [] }],
          requestBody: jsonBody({
            type: 'object',
            required: ['query'],
            properties: { query: { type: 'string' }, variables: { type: ['object', 'null'] }, operationName: { type: ['string', 'null'] } },
            examples: [{ query: '{ __typename }' }],
          }),
          responses: {
            '200': ok('GraphQL response {data, errors}', { type: 'object' }),
            '400': {
              description: 'An invalid, too deep or too costly operation ({errors}, as GraphQL answers), or a body that is not JSON (a problem).',
              content: { 'application/json': { schema: { type: 'object' } }, 'application/problem+json': { schema: ref('Problem') } },
            },
            ...problems([401, 403, 413, 415, 429, 503]),
          },
        },
      },
    },
  };
}
