import type { FastifyError, FastifyReply } from 'fastify';
import { unavailableError } from '../db/faults.js';
import { databaseRefusedText } from '../db/safe-text.js';
import { VigilError, toProblem, vigilCause, type ErrorCode } from '../errors.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function sendProblem(reply: FastifyReply, error: VigilError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).type(PROBLEM_CONTENT_TYPE).send(toProblem(error));
}

// Fastify's own errors for malformed requests, mapped onto our catalog.
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_BAD_URL: 'validation_failed',
  FST_ERR_MAX_PARAM_LENGTH: 'validation_failed',
};

const byStatus: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Any error reaching the edge becomes a VigilError; unknown failures become `internal` with no detail. */
export function toVigilError(error: unknown): { error: VigilError; internal: boolean } {
  if (error instanceof VigilError) return { error, internal: false };
  const cause = vigilCause(error);
  if (cause) return { error: cause, internal: false };
  const fe = error as Partial<FastifyError>;
  const code = (fe.code && fastifyCodes[fe.code]) ?? (fe.statusCode && fe.statusCode < 500 ? byStatus[fe.statusCode] : undefined);
  if (code) {
    const detail = code === 'invalid_json' ? `The body is not valid JSON: ${fe.message}` : (fe.message ?? code);
    return { error: new VigilError(code, detail), internal: false };
  }
  if (databaseRefusedText(error)) return { error: new VigilError('validation_failed', 'The input contains text the database cannot store'), internal: true };
  if (error instanceof SyntaxError) return { error: new VigilError('invalid_json', `The body is not valid JSON: ${error.message}`), internal: false };
  const unavailable = unavailableError(error);
  if (unavailable) return { error: unavailable, internal: false };
  return { error: new VigilError('internal', 'An internal error occurred; it has been logged.'), internal: true };
}
