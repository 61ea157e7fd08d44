import { z } from 'zod';
import { storableString } from '../db/safe-text.js';
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

export const text = (max: number, what = 'text') => storableString().min(1, `${what} must not be empty`).max(max);

const metadataLimits = { maxDepth: registryLimits.metadataMaxDepth, maxKeys: registryLimits.metadataMaxKeys };

function checkMetadata(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const issues = jsonTreeIssues(value, metadataLimits);
  for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  // Measured only once the depth is known to be small: JSON.stringify recurses and a deep value overflows the stack.
  if (issues.length === 0 && Buffer.byteLength(JSON.stringify(value)) > registryLimits.metadataMaxBytes) {
    ctx.addIssue({ code: 'custom', message: `larger than ${registryLimits.metadataMaxBytes} bytes`, path: [] });
  }
}

export const deviceIdParam = text(registryLimits.deviceIdMax, 'device_id');

export const metadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine(checkMetadata)
  .describe('Registration metadata (key/value); `role` becomes the registration role, `branch` is filterable.');

export const registerBody = z
  .object({
    user_id: text(registryLimits.userIdMax, 'user_id').describe('User the device is registered to.'),
    metadata: metadataSchema.optional(),
  })
  .strict();

export const deviceDeactivateBody = z
  .object({ reason: text(registryLimits.reasonMax, 'reason').describe('Why the device is deactivated; recorded.') })
  .strict();

/** Supervisor moves name the supervisor in `by`, as the spec's routes do. */
export const supervisorDeactivateBody = z
  .object({
    reason: text(registryLimits.reasonMax, 'reason'),
    by: text(registryLimits.byMax, 'by').describe("The supervisor's identifier, recorded as given."),
  })
  .strict();

export const supervisorReactivateBody = supervisorDeactivateBody;

export const supervisorTransferBody = z
  .object({
    new_user_id: text(registryLimits.userIdMax, 'new_user_id').describe('User the registration now belongs to.'),
    by: text(registryLimits.byMax, 'by').describe("The supervisor's identifier, recorded as given."),
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
  sort: z
    .enum(deviceSorts)
    .default('device_id')
    .describe('last_seen is newest first; never-seen devices sort last, and devices without events last by risk.'),
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

const deviceIds = z
  .array(deviceIdParam)
  .min(1, 'give at least one device id')
  .describe(`Device ids, at most ${registryLimits.bulkMaxDevices} (more is 400 too_many_devices); repeats are moved once.`);

export const bulkDeactivateBody = z.object({ device_ids: deviceIds, ...supervisorDeactivateBody.shape }).strict();

export const bulkTransferBody = z.object({ device_ids: deviceIds, ...supervisorTransferBody.shape }).strict();
