import { z } from 'zod';
import { errorCatalog, type ErrorCode } from '../errors.js';

/**
 * Building blocks shared by the parts of /openapi.json. Request schemas are the zod schemas that validate requests
 * (io: input); response schemas are zod schemas the answers are typed by (io: output, so unknown fields are refused
 * and the fuzz suite notices a field the document does not name).
 */
export const requestSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
export const responseSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const ok = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
export const jsonBody = (schema: unknown, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

/** RFC 9457 problem details as toProblem() writes them (errors.ts). */
export const problemBodySchema = z.object({
  type: z.string().describe('URI reference /problems/{code}'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum(Object.keys(errorCatalog) as [ErrorCode, ...ErrorCode[]]),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

/** What each status means on most routes; a route passes its own sentence where it means more. */
const meaning = {
  400: 'Invalid JSON, parameters or fields; `errors` lists each {path, message}.',
  401: 'Missing, unknown, revoked or expired credentials (with WWW-Authenticate: Bearer).',
  403: 'Credentials of the wrong kind, or a role without the permission.',
  404: 'No such resource.',
  409: 'Conflict with the current state.',
  413: 'Body larger than allowed.',
  415: 'Content-Type is not application/json.',
  429: 'Rate limit exceeded; see Retry-After.',
  503: 'The database did not answer; nothing was changed. Retry after Retry-After.',
} as const;

export type ProblemStatus = keyof typeof meaning;

/** Statuses every route behind a credential can answer, and those every route reading a JSON body can. */
export const guarded: ProblemStatus[] = [401, 403, 429, 503];
export const withBody: ProblemStatus[] = [400, 413, 415];

/** Problem responses for `statuses`, described by `meaning` unless `said` has a sentence for the status. */
export function problems(statuses: ProblemStatus[], said: Partial<Record<ProblemStatus, string>> = {}): Record<string, unknown> {
  return Object.fromEntries(statuses.map((status) => [String(status), problem(said[status] ?? meaning[status])]));
}
