import { z } from 'zod';
import { deviceStatusSchema } from './schemas.js';

/** The shapes the registry routes answer; views.ts and service.ts are typed by them and /openapi.json shows them. */

const time = z.string().describe('ISO 8601 date-time');
const metadata = z.record(z.string(), z.unknown());

/** The DeviceRegistration answered by POST /devices/{id}/register. */
export const registrationSchema = z.object({
  device_id: z.string(),
  user_id: z.string(),
  role: z.string().nullable(),
  registered_at: time,
  metadata,
});

/** Registration status as the Android library reads it. */
export const registrationStatusSchema = z.object({
  device_id: z.string(),
  is_registered: z.boolean(),
  user_id: z.string().nullable(),
  is_active: z.boolean(),
  role: z.string().nullable(),
  status: deviceStatusSchema,
  registered_at: time.nullable(),
  deactivated_at: time.nullable(),
  deactivation_reason: z.string().nullable(),
  metadata,
});

/** A device as the supervisor REST API answers it. */
export const supervisorDeviceSchema = z.object({
  device_id: z.string(),
  user_id: z.string().nullable(),
  role: z.string().nullable(),
  metadata,
  status: deviceStatusSchema,
  registered_at: time.nullable(),
  deactivated_at: time.nullable(),
  deactivation_reason: z.string().nullable(),
  first_seen: time.nullable(),
  last_seen: time.nullable(),
  handprint_id: z.string().nullable(),
  current_tags: z.array(z.string()),
  risk_score: z.number().nullable().describe("Score of the device's latest event; null when it sent none."),
  model: z.string().nullable(),
  os_version: z.string().nullable(),
});

export const auditRecordSchema = z.object({
  id: z.string(),
  action: z.enum(['register', 'register_conflict', 'deactivate', 'reactivate', 'transfer']),
  device_id: z.string(),
  from_user: z.string().nullable(),
  to_user: z.string().nullable(),
  reason: z.string().nullable(),
  by: z.string().nullable(),
  actor: z.object({ kind: z.enum(['write_key', 'client_key', 'supervisor']), id: z.string(), name: z.string() }),
  metadata: metadata.nullable(),
  at: time,
});

export const devicePageSchema = z.object({ devices: z.array(supervisorDeviceSchema), next_cursor: z.string().nullable() });

export const deviceDetailSchema = supervisorDeviceSchema.extend({ history: z.array(auditRecordSchema) });

const moveMessage = z.string().describe('What changed, or why nothing did, e.g. "already deactivated since …; reason kept (…)".');

/** A single-device move's answer: the device now, and whether the move changed it. */
export const deviceMoveSchema = supervisorDeviceSchema.extend({
  change: z.object({ changed: z.boolean().describe('False when the device already was as asked: nothing written.'), message: moveMessage }),
});

/** A bulk move's answer: one result per distinct id, in the order given. */
export const bulkMoveSchema = z.object({
  results: z.array(
    z.object({
      device_id: z.string(),
      outcome: z.enum(['changed', 'unchanged', 'refused', 'not_found']),
      message: moveMessage,
      device: supervisorDeviceSchema.nullable().describe('The device after the move; null when not found.'),
    }),
  ),
});

export type RegistrationView = z.output<typeof registrationSchema>;
export type RegistrationStatusView = z.output<typeof registrationStatusSchema>;
export type SupervisorDeviceView = z.output<typeof supervisorDeviceSchema>;
export type AuditRecordView = z.output<typeof auditRecordSchema>;
