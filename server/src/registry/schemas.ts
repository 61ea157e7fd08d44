import { z } from 'zod';
import { storableString } from '../db/safe-text.js';
import { VigilError } from '../errors.js';
import { jsonTreeIssues } from '../db/storable.js';
import { deviceSorts } from './listing.js';

/** Limits of registry input. Documented in the README and OpenAPI. */
export const registryLimits = {
  deviceIdMax: 128,
  userIdMax: 256,
  reasonMax: 1000,
  byMax: 256,
  metadataMaxKeys: 50,
  metadataMaxDepth: 3,
  metadataMaxBytes: 8 * 1024,
  /** Device ids in one bulk deactivate/transfer: each is its own transaction, so a call stays within a request's time. */
  bulkMaxDevices: 500,
} as const;

/** Text the registry stores: not empty, at most `max` characters. The field is named by the error's path, at either edge. */
const text = (max: number) => storableString().min(1, 'must not be empty').max(max);

const metadataLimits = { maxDepth: registryLimits.metadataMaxDepth, maxKeys: registryLimits.metadataMaxKeys };

function checkMetadata(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const issues = jsonTreeIssues(value, metadataLimits);
  for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  // Measured only once the depth is known to be small: JSON.stringify recurses and a deep value overflows the stack.
  if (issues.length === 0 && Buffer.byteLength(JSON.stringify(value)) > registryLimits.metadataMaxBytes) {
    ctx.addIssue({ code: 'custom', message: `larger than ${registryLimits.metadataMaxBytes} bytes`, path: [] });
  }
}

const deviceId = text(registryLimits.deviceIdMax);

/**
 * The rules of registry input, once: REST bodies and parameters are built from them, and GraphQL checks its
 * arguments with them (graphql/resolvers/devices.ts), so the two edges cannot accept different input.
 */
export const registryInput = {
  deviceId,
  userId: text(registryLimits.userIdMax),
  reason: text(registryLimits.reasonMax),
  by: text(registryLimits.byMax),
  deviceIds: z
    .array(deviceId)
    .min(1, 'give at least one device id')
    .describe(`Device ids, at most ${registryLimits.bulkMaxDevices} (more is 400 too_many_devices); repeats are moved once.`),
};

/** Refuses an over-long id list before each id is checked: the answer names the limit, not hundreds of field errors. */
export function refuseTooManyDevices(count: number, path: string): void {
  if (count <= registryLimits.bulkMaxDevices) return;
  throw new VigilError('too_many_devices', `${count} device ids; one call moves at most ${registryLimits.bulkMaxDevices}`, {
    errors: [{ path, message: `at most ${registryLimits.bulkMaxDevices} ids` }],
  });
}

export const deviceIdParam = registryInput.deviceId;

/** The path parameters of a device route. */
export const deviceParams = z.object({ device_id: deviceIdParam });

export const metadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine(checkMetadata)
  .describe('Registration metadata (key/value); `role` becomes the registration role, `branch` is filterable.');

export const registerBody = z
  .object({
    user_id: registryInput.userId.describe('User the device is registered to.'),
    metadata: metadataSchema.optional(),
  })
  .strict();

export const deviceDeactivateBody = z.object({ reason: registryInput.reason.describe('Why the device is deactivated; recorded.') }).strict();

/** Supervisor moves name the supervisor in `by`, as every supervisor route does. */
export const supervisorDeactivateBody = z
  .object({
    reason: registryInput.reason,
    by: registryInput.by.describe("The supervisor's identifier, recorded as given."),
  })
  .strict();

// Its own instance, so it has its own name in /openapi.json.
export const supervisorReactivateBody = supervisorDeactivateBody.clone();

export const supervisorTransferBody = z
  .object({
    new_user_id: registryInput.userId.describe('User the registration now belongs to.'),
    by: registryInput.by.describe("The supervisor's identifier, recorded as given."),
  })
  .strict();

export const deviceStatusSchema = z.enum(['unregistered', 'active', 'deactivated']);

/** The device filters and order, as query parameters (listing and export). */
const deviceQuery = {
  role: storableString().max(256).optional(),
  branch: storableString().max(256).optional(),
  status: deviceStatusSchema.optional(),
  user_id: storableString().max(registryLimits.userIdMax).optional(),
  tag: storableString().max(64).optional(),
  id_prefix: storableString().max(registryLimits.deviceIdMax).optional().describe('Device ids starting with this text (case-sensitive; % and _ literal).'),
  user_id_prefix: storableString().max(registryLimits.userIdMax).optional().describe('Registered user ids starting with this text.'),
  sort: z.enum(deviceSorts).default('device_id').describe('last_seen is newest first; never-seen devices sort last, and devices without events last by risk.'),
};

export const listQuerySchema = z
  .object({
    ...deviceQuery,
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().max(1024).optional(),
  })
  .strict();

export const exportQuerySchema = z
  .object({
    ...deviceQuery,
    format: z.enum(['ndjson', 'csv']).describe('NDJSON (a JSON object per line) or CSV (RFC 4180, a header row).'),
    after: z.string().max(1024).optional().describe('Resume after the row whose `cursor` this is.'),
  })
  .strict();

/** Query parameters onto the listing's filter. */
export const deviceFilterOf = (q: z.output<typeof listQuerySchema> | z.output<typeof exportQuerySchema>) => ({
  role: q.role,
  branch: q.branch,
  status: q.status,
  userId: q.user_id,
  tag: q.tag,
  idPrefix: q.id_prefix,
  userIdPrefix: q.user_id_prefix,
});

export const bulkDeactivateBody = z.object({ device_ids: registryInput.deviceIds, ...supervisorDeactivateBody.shape }).strict();

export const bulkTransferBody = z.object({ device_ids: registryInput.deviceIds, ...supervisorTransferBody.shape }).strict();
