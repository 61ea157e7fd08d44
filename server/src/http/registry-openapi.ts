import { z } from 'zod';
import { loginBody } from './routes/auth.js';
import {
  deviceDeactivateBody,
  listQuerySchema,
  registerBody,
  supervisorDeactivateBody,
  supervisorReactivateBody,
  supervisorTransferBody,
} from '../registry/schemas.js';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const deviceParam = { name: 'device_id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 128 } };

const nullableString = { type: ['string', 'null'] };
const time = { type: ['string', 'null'], format: 'date-time' };

const registration = {
  type: 'object',
  required: ['device_id', 'user_id', 'role', 'registered_at', 'metadata'],
  properties: { device_id: { type: 'string' }, user_id: { type: 'string' }, role: nullableString, registered_at: { type: 'string', format: 'date-time' }, metadata: { type: 'object' } },
};
const registrationStatus = {
  type: 'object',
  properties: {
    device_id: { type: 'string' },
    is_registered: { type: 'boolean' },
    user_id: nullableString,
    is_active: { type: 'boolean' },
    role: nullableString,
    status: { enum: ['unregistered', 'active', 'deactivated'] },
    registered_at: time,
    deactivated_at: time,
    deactivation_reason: nullableString,
    metadata: { type: 'object' },
  },
};
const supervisorDevice = {
  type: 'object',
  properties: {
    device_id: { type: 'string' },
    user_id: nullableString,
    role: nullableString,
    metadata: { type: 'object' },
    status: { enum: ['unregistered', 'active', 'deactivated'] },
    registered_at: time,
    deactivated_at: time,
    deactivation_reason: nullableString,
    first_seen: time,
    last_seen: time,
    handprint_id: nullableString,
    current_tags: { type: 'array', items: { type: 'string' } },
    model: nullableString,
    os_version: nullableString,
  },
};
const auditRecord = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    action: { enum: ['register', 'register_conflict', 'deactivate', 'reactivate', 'transfer'] },
    device_id: { type: 'string' },
    from_user: nullableString,
    to_user: nullableString,
    reason: nullableString,
    by: nullableString,
    actor: { type: 'object', properties: { kind: { enum: ['write_key', 'client_key', 'supervisor'] }, id: { type: 'string' }, name: { type: 'string' } } },
    metadata: { type: ['object', 'null'] },
    at: { type: 'string', format: 'date-time' },
  },
};

const keyErrors = {
  '400': problem('Invalid device_id or body; `errors` lists each {path, message}.'),
  '401': problem('Missing, unknown or revoked key.'),
  '403': problem('Not a write or client key.'),
};
const supervisorErrors = {
  '400': problem('Invalid input; `errors` lists each {path, message}.'),
  '401': problem('Missing, unknown or revoked token, or an expired session.'),
  '403': problem('A write or client key, or a role without the permission.'),
};
const moveErrors = {
  ...supervisorErrors,
  '404': problem('No such device.'),
  '409': problem('device_not_registered.'),
};

/** The registry, supervisor and GraphQL parts of /openapi.json, from the same zod schemas that validate requests. */
export function registryOpenApi() {
  const device = { security: [{ clientKey: [] }, { writeKey: [] }], parameters: [deviceParam] };
  const supervised = (summary: string, schema: string | null, extra: Record<string, unknown> = {}) => ({
    summary,
    security: [{ supervisorToken: [] }],
    parameters: [deviceParam],
    ...(schema ? { requestBody: body(schema) } : {}),
    ...extra,
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
      RegisterDevice: json(registerBody),
      DeviceDeactivate: json(deviceDeactivateBody),
      SupervisorDeactivate: json(supervisorDeactivateBody),
      SupervisorReactivate: json(supervisorReactivateBody),
      SupervisorTransfer: json(supervisorTransferBody),
      Login: json(loginBody),
      DeviceRegistration: registration,
      RegistrationStatus: registrationStatus,
      SupervisorDevice: supervisorDevice,
      AuditRecord: auditRecord,
    },
    paths: {
      '/devices/{device_id}/register': {
        post: {
          ...device,
          summary: 'Register a device to a user (role from metadata.role); again by the same user is idempotent',
          requestBody: body('RegisterDevice'),
          responses: {
            '200': ok('The DeviceRegistration', ref('DeviceRegistration')),
            ...keyErrors,
            '409': problem('device_registered_to_other_user (the attempt is recorded) or device_deactivated.'),
          },
        },
      },
      '/devices/{device_id}/registration': {
        get: { ...device, summary: "A device's registration (also when unregistered)", responses: { '200': ok('Registration status', ref('RegistrationStatus')), ...keyErrors } },
      },
      '/devices/{device_id}/deactivate': {
        post: {
          ...device,
          summary: 'Deactivate this device with a reason; repeating is idempotent',
          requestBody: body('DeviceDeactivate'),
          responses: { '200': ok('Registration status', ref('RegistrationStatus')), ...keyErrors, '404': problem('Unknown device.'), '409': problem('device_not_registered.') },
        },
      },
      '/api/devices': {
        get: {
          summary: 'List devices (viewer+), filtered and keyset-paged',
          security: [{ supervisorToken: [] }],
          parameters: Object.entries(json(listQuerySchema).properties as Record<string, unknown>).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
          responses: {
            '200': ok('A page', { type: 'object', properties: { devices: { type: 'array', items: ref('SupervisorDevice') }, next_cursor: nullableString } }),
            ...supervisorErrors,
          },
        },
      },
      '/api/devices/{device_id}': {
        get: supervised('One device with its audit history (viewer+)', null, {
          responses: {
            '200': ok('The device', { allOf: [ref('SupervisorDevice'), { type: 'object', properties: { history: { type: 'array', items: ref('AuditRecord') } } }] }),
            ...supervisorErrors,
            '404': problem('No such device.'),
          },
        }),
      },
      '/api/devices/{device_id}/deactivate': {
        post: supervised('Deactivate (supervisor+); idempotent', 'SupervisorDeactivate', { responses: { '200': ok('The updated device', ref('SupervisorDevice')), ...moveErrors } }),
      },
      '/api/devices/{device_id}/transfer': {
        post: supervised('Transfer to another user (supervisor+); starts a fresh association', 'SupervisorTransfer', {
          responses: { '200': ok('The updated device', ref('SupervisorDevice')), ...moveErrors },
        }),
      },
      '/api/devices/{device_id}/reactivate': {
        post: supervised('Reactivate a deactivated device (supervisor+); idempotent', 'SupervisorReactivate', {
          responses: { '200': ok('The updated device', ref('SupervisorDevice')), ...moveErrors },
        }),
      },
      '/api/auth/login': {
        post: {
          summary: 'Sign in: a console session token, expiring after VIGIL_SESSION_TTL_HOURS',
          requestBody: body('Login'),
          responses: {
            '200': ok('Session', { type: 'object', properties: { token: { type: 'string' }, session_id: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' }, supervisor: { type: 'object' } } }),
            '400': problem('Invalid body.'),
            '401': problem('Wrong username or password.'),
            '403': problem('The account is disabled (said only after the right password).'),
            '429': problem('Too many attempts from this client address, or from it for this username; see Retry-After.'),
          },
        },
      },
      '/api/auth/logout': {
        post: { summary: 'End the session at once', security: [{ supervisorToken: [] }], responses: { '200': ok('Done', { type: 'object', properties: { logged_out: { type: 'boolean' } } }), '401': problem('Not signed in.') } },
      },
      '/api/auth/me': {
        get: { summary: 'The signed-in supervisor', security: [{ supervisorToken: [] }], responses: { '200': ok('Supervisor', { type: 'object' }), ...supervisorErrors } },
      },
      '/graphql': {
        post: {
          summary: 'GraphQL (schema: server/schema.graphql); errors carry extensions.code from the problem catalog',
          security: [{ supervisorToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['query'], properties: { query: { type: 'string' }, variables: { type: 'object' }, operationName: { type: 'string' } } } } } },
          responses: { '200': ok('GraphQL response {data, errors}', { type: 'object' }), '400': ok('Invalid, too deep or too costly operation', { type: 'object' }), '401': problem('Missing, unknown, revoked or expired credential.'), '403': problem('A write or client key.') },
        },
      },
    },
  };
}
