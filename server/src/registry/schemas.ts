import { z } from 'zod';

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

// PostgreSQL refuses NUL in text and lone surrogates in jsonb: refuse them here as a 400 instead.
const clean = (s: string) => !s.includes('\u0000') && s.isWellFormed();

export const text = (max: number, what = 'text') =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(max)
    .refine(clean, 'must be well-formed Unicode without NUL characters');

function checkMetadata(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  let keys = 0;
  const visit = (node: unknown, path: (string | number)[], depth: number): void => {
    if (typeof node === 'string') {
      if (!clean(node)) ctx.addIssue({ code: 'custom', message: 'must be well-formed Unicode without NUL characters', path });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (depth > registryLimits.metadataMaxDepth) {
      ctx.addIssue({ code: 'custom', message: `nesting deeper than ${registryLimits.metadataMaxDepth} levels`, path });
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      keys++;
      if (!clean(key)) ctx.addIssue({ code: 'custom', message: 'key must be well-formed Unicode without NUL characters', path });
      visit(child, [...path, key], depth + 1);
    }
  };
  visit(value, [], 1);
  if (keys > registryLimits.metadataMaxKeys) {
    ctx.addIssue({ code: 'custom', message: `more than ${registryLimits.metadataMaxKeys} keys in total`, path: [] });
  }
  if (Buffer.byteLength(JSON.stringify(value)) > registryLimits.metadataMaxBytes) {
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
    role: z.string().max(256).optional(),
    branch: z.string().max(256).optional(),
    status: deviceStatusSchema.optional(),
    user_id: z.string().max(registryLimits.userIdMax).optional(),
    tag: z.string().max(64).optional(),
    sort: z.enum(['device_id', 'last_seen']).default('device_id'),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().max(1024).optional(),
  })
  .strict();
