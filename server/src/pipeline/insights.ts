import { z } from 'zod';

/** The Behavior shape of an answer; fields an operation does not use are null. */
export const behaviorSchema = z.object({
  count: z.number().int().nullable(),
  sum: z.number().nullable(),
  unique: z.number().int().nullable(),
  values: z.array(z.string()).nullable(),
});

/** An answer's DeviceInfo, in snake_case, plus `status`. */
export const deviceInfoSchema = z.object({
  is_registered: z.boolean(),
  is_trusted: z.boolean().describe('Registered, active, and no Critical or High tag.'),
  registered_to: z.string().nullable(),
  registered_at: z.string().nullable(),
  role: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  age_days: z.number().int(),
  is_new: z.boolean().describe('Younger than 24 hours.'),
  model: z.string().nullable(),
  os_version: z.string().nullable(),
  status: z.enum(['unregistered', 'active', 'deactivated']),
});

export const warningSchema = z.object({ code: z.string(), message: z.string() });

export const insightsSchema = z.object({
  event_id: z.string().describe("Vigil's id of the stored event (`evt_…`); the same on an idempotent replay."),
  device_id: z.string().nullable().describe('The device identifier the caller passed in, or null.'),
  handprint_id: z.string().describe("Vigil's cross-session device fingerprint."),
  current_tags: z.array(z.string()).describe('Risk tags currently applying.'),
  risk_score: z.number().min(0).max(1),
  score_breakdown: z.array(z.object({ tag: z.string(), weight: z.number(), contribution: z.number() })),
  device_id_details: z.object({ age: z.object({ days: z.number().int() }) }),
  behaviors: z.record(z.string(), behaviorSchema),
  device: deviceInfoSchema,
  email_intel: z.record(z.string(), z.unknown()).nullable(),
  phone_intel: z.record(z.string(), z.unknown()).nullable(),
  warnings: z.array(warningSchema).describe('Input Vigil could not use, e.g. an invalid ip_address.'),
});

export type Insights = z.infer<typeof insightsSchema>;
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;
export type Warning = z.infer<typeof warningSchema>;
