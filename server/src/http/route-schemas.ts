import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';
import { errorCatalog, validationError, type ErrorCode } from '../errors.js';

/**
 * Route schemas are zod schemas declared once on each route: Fastify validates requests with them and
 * /openapi.json is generated from them (openapi.ts). Request schemas are shown as they are read (io: input),
 * response schemas as they are answered (io: output, unknown fields refused, so the fuzz suite notices a field the
 * document does not name).
 */

/** What a failed request schema says before its field errors ("Invalid transfer: …"), by schema. */
const said = new WeakMap<z.ZodType, string>();
/** Schemas shown in the document but checked by the handler, which needs the raw value (its own order or kit). */
const handlerChecked = new WeakSet<z.ZodType>();

/** `schema`, whose failures are a 400 validation_failed that starts with `what`. */
export function validatedAs<T extends z.ZodType>(what: string, schema: T): T {
  said.set(schema, what);
  return schema;
}

/** `schema`, documented on its route but validated by the handler. */
export function checkedByHandler<T extends z.ZodType>(schema: T): T {
  handlerChecked.add(schema);
  return schema;
}

const partNames: Record<string, string> = { params: 'Invalid parameters', querystring: 'Invalid query', body: 'Invalid body', headers: 'Invalid headers' };

/** Validation with the route's zod schemas, failing with the same problem (errors by field) the handlers raise. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  if (handlerChecked.has(schema)) return (data) => ({ value: data });
  const what = said.get(schema) ?? partNames[httpPart ?? 'body'] ?? 'Invalid request';
  return (data) => {
    const parsed = schema.safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: validationError(parsed.error, what) };
  };
};

/** Answers are written as JSON, unchanged: response schemas document them (view-schemas.test.ts keeps them exact). */
export const serializerCompiler: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

/** RFC 9457 problem details as toProblem() writes them (errors.ts). */
export const problemBodySchema = z.object({
  type: z.string().describe('URI reference /problems/{code}'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum(Object.keys(errorCatalog) as [ErrorCode, ...ErrorCode[]]),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: problemBodySchema } } });
export const textAnswer = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: z.string() }])),
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

/** Problem responses for `statuses`, described by `meaning` unless `own` has a sentence for the status. */
export function problems(statuses: ProblemStatus[], own: Partial<Record<ProblemStatus, string>> = {}) {
  return Object.fromEntries(statuses.map((status) => [status, problem(own[status] ?? meaning[status])]));
}

/** OpenAPI links from an answer carrying a device_id to the operations on that device (stateful clients, fuzzers). */
export const toDevice = (pointer: string, ...operationIds: string[]) =>
  Object.fromEntries(operationIds.map((id) => [id, { operationId: id, parameters: { device_id: `$response.body#${pointer}` } }]));

/** Any one of these security schemes (openapi.ts names them) authorises the route. */
export const securedBy = (...schemes: string[]): Record<string, string[]>[] => schemes.map((scheme) => ({ [scheme]: [] }));

/**
 * Names `schema` under #/components/schemas. In zod's global registry, next to the descriptions `.describe()` keeps
 * there, which the document generator reads. Shared schemas are named in openapi.ts, route-local ones where they are.
 */
export function component<T extends z.ZodType>(name: string, schema: T): T {
  const meta = z.globalRegistry.get(schema);
  if (meta?.id !== name) z.globalRegistry.add(schema, { ...meta, id: name });
  return schema;
}
