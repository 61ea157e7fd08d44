import { z } from 'zod';
import { storableString } from '../db/safe-text.js';
import { jsonTreeIssues } from '../ingest/storable.js';

/** Limits of registry input. Documented in the README and OpenAPI. */
export const registryLimits = {
  deviceIdMax: 128,
  userIdMax: 256,
  reasonMax: 1000,
  byMax: 256,
  metadataMaxKeys: 50,
  metadataMaxDepth: 3,
  metadataMaxBytes: 8 * 1024,
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

export const listQuerySchema = z
  .object({
    role: storableString().max(256).optional(),
    branch: storableString().max(256).optional(),
    status: deviceStatusSchema.optional(),
    user_id: storableString().max(registryLimits.userIdMax).optional(),
    tag: storableString().max(64).optional(),
    sort: z.enum(['device_id', 'last_seen']).default('device_id'),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().max(1024).optional(),
  })
  .strict();
