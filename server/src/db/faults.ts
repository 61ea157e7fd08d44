import { VigilError, vigilCause } from '../errors.js';

/**
 * What kind of dependency fault an error is. A fault is the database's condition, not the request's: the same
 * request succeeds once the database is back, so it is answered 503 with Retry-After, never 500.
 */
export type FaultKind = 'connection' | 'disk_full' | 'read_only';

/** Seconds a client should wait before retrying, per kind: a restart takes seconds, freeing disk takes a person. */
export const RETRY_AFTER_SECONDS: Record<FaultKind, number> = { connection: 5, disk_full: 30, read_only: 5 };

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// node-postgres reports a lost or unobtainable connection with these messages and no code.
const CONNECTION_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'is not queryable'];

/**
 * A PANIC: the database stopped. PGlite runs PostgreSQL in this process, so its client sees the PANIC itself (a
 * server's other clients see 57P02 instead) and its instance is dead (see pglite-guard). A flush to the disk that
 * failed is one (58030 io_error; 53100 when the disk refused for lack of space).
 */
export const isPanic = (error: unknown): boolean => (error as { severity?: unknown } | null)?.severity === 'PANIC';

function kindOf(error: { code?: unknown; message?: unknown }): FaultKind | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  // SQLSTATE: 53100 disk_full (and ENOSPC from the file system, PGlite); 25006 read_only_sql_transaction is a
  // standby answering after a failover before the address moved; class 08 connection exceptions; 57P01-03
  // admin/crash shutdown and "cannot connect now"; class 53 out of memory or connections.
  if (code === '53100' || code === 'ENOSPC') return 'disk_full';
  if (code === '25006' || code === 'EROFS') return 'read_only';
  if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || code.startsWith('53') || NETWORK_CODES.has(code)) return 'connection';
  if (isPanic(error)) return 'connection';
  const message = typeof error.message === 'string' ? error.message : '';
  if (CONNECTION_MESSAGES.some((m) => message.includes(m))) return 'connection';
  return undefined;
}

/** The fault behind an error, looking through wrappers (drizzle's `cause`, AggregateError's `errors`). */
export function faultKind(error: unknown, depth = 0): FaultKind | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  if (error instanceof DatabaseFault) return error.kind;
  const direct = kindOf(error as { code?: unknown; message?: unknown });
  if (direct) return direct;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  const nested = faultKind(cause, depth + 1);
  if (nested) return nested;
  if (!Array.isArray(errors)) return undefined;
  return errors.map((e) => faultKind(e, depth + 1)).find((kind) => kind !== undefined);
}

const DETAIL: Record<FaultKind, string> = {
  connection: 'The database is not reachable; nothing was stored. Retry later with the same event_id.',
  disk_full: "The database's disk is full; nothing was stored. Retry later with the same event_id.",
  read_only: 'The database is read-only (failover in progress?); nothing was stored. Retry later with the same event_id.',
};

/** Raised by Vigil itself when it refuses work because the database is known to be failing (see pglite-guard). */
export class DatabaseFault extends Error {
  override name = 'DatabaseFault';
  constructor(
    readonly kind: FaultKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The 503 `unavailable` with Retry-After that answers a request during a fault of this kind. */
export function faultError(kind: FaultKind, detail = DETAIL[kind]): VigilError {
  return new VigilError('unavailable', detail, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS[kind]) } });
}

/** The 503 `unavailable` with Retry-After for a dependency fault, or undefined when the error is something else. */
export function unavailableError(error: unknown): VigilError | undefined {
  // Through drizzle's wrapper too: a refusal of Vigil's own (a reporting replica that is down) keeps its words.
  const own = vigilCause(error);
  if (own) return own.code === 'unavailable' ? own : undefined;
  const kind = faultKind(error);
  return kind ? faultError(kind) : undefined;
}
