import 'server-only';

export interface FieldError {
  path: string;
  message: string;
}

/** A refusal or failure reported by the Vigil API, with its problem code (`validation_failed`, `forbidden`, …). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The session is missing, expired or revoked: the user has to sign in again. */
export class SessionExpiredError extends ApiError {
  constructor(message = 'Your session has expired; sign in again') {
    super('unauthorized', message, 401);
    this.name = 'SessionExpiredError';
  }
}

/** The API could not be reached or answered something that is not the API. */
export class ApiUnavailableError extends ApiError {
  constructor(message: string) {
    super('unavailable', message, 503);
    this.name = 'ApiUnavailableError';
  }
}
