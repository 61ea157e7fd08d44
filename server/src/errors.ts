import type { ZodError } from 'zod';

/**
 * The one list of failure codes. HTTP status, problem+json `type` and GraphQL `extensions.code` all derive
 * from it, so REST and GraphQL callers see the same vocabulary.
 */
export const errorCatalog = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  invalid_json: { status: 400, title: 'The body is not valid JSON' },
  malformed_request: { status: 400, title: 'The request is not valid HTTP' },
  unauthorized: { status: 401, title: 'Missing, unknown or revoked credentials' },
  forbidden: { status: 403, title: 'These credentials may not use this route' },
  origin_not_allowed: { status: 403, title: 'This page origin may not call the /js endpoints' },
  write_key_not_allowed: { status: 403, title: 'A write key must never be used from a browser' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  conflict: { status: 409, title: 'Conflict' },
  device_registered_to_other_user: { status: 409, title: 'The device is registered to another user' },
  device_not_registered: { status: 409, title: 'The device is not registered' },
  device_deactivated: { status: 409, title: 'The device is deactivated; a supervisor must reactivate it' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Content-Type must be application/json' },
  query_too_expensive: { status: 400, title: 'The query would read more than a limit allows' },
  too_many_devices: { status: 400, title: 'More devices than one call may move' },
  rate_limited: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  internal: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
  webhook_endpoint_refused: { status: 400, title: 'The webhook endpoint is not allowed (not http(s), or a private address)' },
  device_key_mismatch: { status: 403, title: 'The request is not signed by the key this device registered' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export interface FieldError {
  path: string;
  message: string;
}

/** A failure the caller can act on; anything else reaching the edge is reported as `internal`. */
export class VigilError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  /** `cause`: what failed underneath, for logs and for code that must tell failures apart (never shown to callers). */
  constructor(code: ErrorCode, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VigilError';
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorCatalog[this.code].status;
  }
}

/** The first of an error and the errors it was caused by (five deep) that `matches`: drivers and pools wrap. */
export function causeWhere<T extends Error>(error: unknown, matches: (e: Error) => e is T): T | undefined;
export function causeWhere(error: unknown, matches: (e: Error) => boolean): Error | undefined;
export function causeWhere(error: unknown, matches: (e: Error) => boolean): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (matches(e)) return e;
  return undefined;
}

/** The VigilError behind an error: itself, or one it was caused by (a driver wraps what its pool threw). */
export function vigilCause(error: unknown): VigilError | undefined {
  return causeWhere(error, (e): e is VigilError => e instanceof VigilError);
}

/** RFC 9457 problem details, plus `code` (the catalog key) and field `errors` for validation. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
}

export function problemType(code: ErrorCode): string {
  return `/problems/${code}`;
}

export function toProblem(error: VigilError): Problem {
  const entry = errorCatalog[error.code];
  return {
    type: problemType(error.code),
    title: entry.title,
    status: entry.status,
    detail: error.message,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

/** Zod issues as problem `errors`; here, not in http/, because every layer that validates input raises them. */
export function zodFieldErrors(error: ZodError, prefix = ''): FieldError[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)',
    message: issue.message,
  }));
}

export function validationError(error: ZodError, what: string, prefix = ''): VigilError {
  const errors = zodFieldErrors(error, prefix);
  return new VigilError('validation_failed', `${what}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, { errors });
}

/** Raised when configuration is wrong; the CLI prints it and exits without a stack trace. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Field errors found by a parser of its own (the /js bodies): the first five in `detail`, every one in `errors`. */
export function fieldsValidationError(errors: FieldError[]): VigilError {
  return new VigilError(
    'validation_failed',
    errors
      .map((e) => `${e.path}: ${e.message}`)
      .slice(0, 5)
      .join('; '),
    { errors },
  );
}
