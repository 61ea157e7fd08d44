import { verifyBrowserTokenSignature } from '../handprint/token/verify.js';
import type { BrowserTokenClaims, KeyRing } from '../handprint/token/types.js';
import { fieldsValidationError, type VigilError } from '../errors.js';
import { parseEventsRequest } from './schemas.js';

/** Magic properties the browser may not set itself: the server fills them from what it trusts. */
export const SERVER_OWNED_PROPERTIES = [
  'ip_address',
  'ip',
  'user_agent',
  'device_id',
  'event_id',
  'timestamp',
  'browser_token',
  'device_signals',
  'session_id',
] as const;

/** An event in the shape of POST /events, ready for the normal ingestion pipeline. */
export interface IngestEvent {
  event: string;
  identity?: string;
  properties: Record<string, unknown>;
  /** The request's send time by the page's clock; normalization corrects the timestamp by the clock error. */
  sent_at?: string;
}

export interface EventsContext {
  keys: KeyRing;
  now(): number;
  /** The connection's address and User-Agent header (never taken from the body). */
  ip?: string | null;
  userAgent?: string | null;
}

export type PreparedEvents =
  | {
      status: 200;
      /** The page's device, from the validated request. */
      device_id: string;
      /** One per submitted event, in order: ingest the `ok` ones and answer the others with their problem. */
      items: Array<{ ok: true; ingest: IngestEvent } | { ok: false; error: VigilError }>;
      /** The verified token's claims (handprint link) or null; `token_warning` says why a token was not used. */
      claims: BrowserTokenClaims | null;
      token_warning: string | null;
    }
  | { status: 400; error: VigilError };

/**
 * POST /js/events without the framework: validate the batch, check the browser_token's signature and expiry (not
 * replay-counted: the page re-sends its token with every batch), and turn each event into a POST /events body
 * with magic properties device_id, event_id, timestamp, browser_token, ip_address and user_agent set here.
 * An expired or forged token does not lose the events: they are ingested linked by device_id only.
 */
export function prepareBrowserEvents(body: unknown, ctx: EventsContext): PreparedEvents {
  const parsed = parseEventsRequest(body);
  if (!parsed.ok) return { status: 400, error: fieldsValidationError(parsed.errors) };
  const request = parsed.value;
  let claims: BrowserTokenClaims | null = null;
  let warning: string | null = null;
  if (request.browser_token) {
    const checked = verifyBrowserTokenSignature(request.browser_token, { keys: ctx.keys, now: ctx.now() });
    if (!checked.ok) warning = `browser_token_${checked.reason}`;
    else if (checked.claims.dev !== request.device_id) warning = 'browser_token_device_mismatch';
    else claims = checked.claims;
  }
  const items = request.events.map((item) => {
    if (!item.ok) return { ok: false as const, error: fieldsValidationError(item.errors) };
    const properties: Record<string, unknown> = { ...(item.event.properties ?? {}) };
    for (const key of SERVER_OWNED_PROPERTIES) delete properties[key];
    properties.device_id = request.device_id;
    properties.event_id = item.event.event_id;
    properties.timestamp = item.event.timestamp;
    if (claims && request.browser_token) properties.browser_token = request.browser_token;
    if (ctx.ip) properties.ip_address = ctx.ip;
    if (ctx.userAgent) properties.user_agent = ctx.userAgent;
    const ingest: IngestEvent = {
      event: item.event.event,
      ...(item.event.identity !== undefined ? { identity: item.event.identity } : {}),
      properties,
      ...(request.sent_at !== null ? { sent_at: request.sent_at } : {}),
    };
    return { ok: true as const, ingest };
  });
  return { status: 200, device_id: request.device_id, items, claims, token_warning: warning };
}
