import { faultKind } from '../db/faults.js';
import { validationError, VigilError } from '../errors.js';
import type { NormalizedEvent, RequestContext } from '../pipeline/event.js';
import type { Ingestor } from './ingestor.js';
import { limits } from './limits.js';
import { normalizeEvent } from './normalize.js';
import { fastEventInput } from './fast-input.js';
import { eventInputSchema, type EventInput } from './schema.js';
import type { StoredOutcome } from './store.js';

/** The parts of an HTTP request an event's context is read from; a Fastify request is one. */
export interface IncomingRequest {
  /** Already resolved through trusted proxies. */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/** A request header's first value. */
export function header(request: Pick<IncomingRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface ContextOptions {
  keyId: string;
  keyKind: RequestContext['keyKind'];
  /** `Idempotency-Key`, single-event route only. */
  idempotencyKey?: string | undefined;
  /** Pass the request's proxy headers on to network intelligence (POST /events and /events/batch). */
  forwarding: boolean;
}

/** What every ingest route knows about the request that carried its events. */
export function requestContext(request: IncomingRequest, options: ContextOptions): RequestContext {
  const ctx: RequestContext = {
    ip: request.ip,
    userAgent: header(request, 'user-agent'),
    acceptLanguage: header(request, 'accept-language'),
    idempotencyKey: options.idempotencyKey,
    keyId: options.keyId,
    keyKind: options.keyKind,
  };
  if (options.forwarding) {
    ctx.forwarding = {
      peer: request.socket.remoteAddress ?? '',
      via: header(request, 'via'),
      forwarded: header(request, 'forwarded'),
      xForwardedFor: header(request, 'x-forwarded-for'),
    };
  }
  return ctx;
}

export interface AcceptDeps {
  ingestor: Ingestor;
  log: { error(obj: object, msg: string): void };
}

export interface AcceptOptions {
  /** Where the event sits in its request body (`events.3`), for the paths of validation errors. */
  prefix?: string;
  /** A batch item also gets the single-event size limit. */
  batchItem?: boolean;
  /** Runs between normalizing and storing: the browser_token link, or the page's handprint on /js/events. */
  link?(event: NormalizedEvent): Promise<void> | void;
}

/**
 * The one way an event gets in, for POST /events, /events/batch and /js/events: parse, normalize, link to a
 * browser, submit, and map a failure to store. Bad input is a 400 VigilError; a database fault is thrown as it is
 * (the edge answers 503 with its Retry-After, and a batch as a whole); any other failure to store is a 503.
 */
export async function acceptEvent(body: unknown, ctx: RequestContext, deps: AcceptDeps, options: AcceptOptions = {}): Promise<StoredOutcome> {
  const prefix = options.prefix ?? '';
  const input = fastEventInput(body) ?? parseEvent(body, prefix);
  // Measured only after validation has bounded its nesting: JSON.stringify recurses, and an item nested thousands
  // of levels deep would overflow the stack.
  if (options.batchItem && Buffer.byteLength(JSON.stringify(input)) > limits.eventBodyBytes) {
    throw new VigilError('payload_too_large', `${prefix} is larger than ${limits.eventBodyBytes} bytes`);
  }
  const event = normalizeEvent(input, ctx);
  await options.link?.(event);
  try {
    return await deps.ingestor.submit(ctx.keyId, event);
  } catch (error) {
    // Retrying is safe: with the same event_id a commit that did land is answered from the stored event.
    if (faultKind(error)) throw error;
    deps.log.error({ err: error }, 'event could not be stored');
    throw new VigilError('unavailable', 'The event could not be stored; retry it with the same event_id', { headers: { 'Retry-After': '1' } });
  }
}

/** The schema's verdict on a body the fast check did not accept: the value, or the 400 with every field's error. */
function parseEvent(body: unknown, prefix: string): EventInput {
  const parsed = eventInputSchema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, 'Invalid event', prefix);
  return parsed.data;
}
