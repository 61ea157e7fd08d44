import { VigilError } from './errors.js';
import type { EventBody, JsonObject } from './wire.js';

/** The service's limits (see contract); checked here so a bad event is reported, not retried. */
const MAX_EVENT_NAME = 200;
const MAX_IDENTITY = 256;
const MAX_EVENT_BYTES = 64 * 1024;
/** What `"sent_at":"…"` adds to a POST /events body, which the service measures whole. */
const SENT_AT_BYTES = ',"sent_at":"2000-01-01T00:00:00.000Z"'.length;

export interface PreparedEvent {
  event: EventBody;
  /** Size of the serialised event, used to keep batches under the body limit. */
  bytes: number;
}

const encoder = new TextEncoder();

/**
 * Builds the wire event: caller properties win, and every event gets an idempotency key
 * (`event_id`) and the time it happened (`timestamp`) now, so a retry minutes later is stored once
 * and with its original time.
 */
export function prepareEvent(
  name: unknown,
  identity: string | undefined,
  properties: JsonObject,
  now: number,
  newId: () => string,
): PreparedEvent | VigilError {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_EVENT_NAME) {
    return new VigilError('invalid_event', `event name must be a string of 1 to ${MAX_EVENT_NAME} characters`);
  }
  if (identity !== undefined && (typeof identity !== 'string' || identity.length > MAX_IDENTITY)) {
    return new VigilError('invalid_event', `identity must be a string of at most ${MAX_IDENTITY} characters`);
  }
  const eventId = typeof properties.event_id === 'string' && properties.event_id !== '' ? properties.event_id : newId();
  const timestamp = typeof properties.timestamp === 'string' ? properties.timestamp : new Date(now).toISOString();
  const event: EventBody = {
    event: name,
    ...(identity === undefined ? {} : { identity }),
    properties: { ...properties, event_id: eventId, timestamp },
  };
  let json: string;
  try {
    json = JSON.stringify(event);
  } catch (cause) {
    return new VigilError('invalid_event', `properties of "${name}" cannot be serialised as JSON`, { cause });
  }
  const bytes = encoder.encode(json).length;
  if (bytes > MAX_EVENT_BYTES - SENT_AT_BYTES) {
    return new VigilError('invalid_event', `event "${name}" is ${bytes} bytes, above the ${MAX_EVENT_BYTES - SENT_AT_BYTES} byte limit`);
  }
  return { event, bytes };
}

/** Accepts only plain objects as properties; anything else is treated as "no properties". */
export function asProperties(value: unknown): JsonObject | undefined {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  return value as JsonObject;
}
