import { JS_LIMITS } from './limits.js';
import type { FieldError } from '../errors.js';

export interface CollectRequest {
  version: 1;
  device_id: string;
  identity?: string;
  components: Record<string, unknown>;
  device_signals: Record<string, unknown> | null;
  library: { name: string; version: string } | null;
}

export interface BrowserEvent {
  event: string;
  identity?: string;
  properties?: Record<string, unknown>;
  event_id: string;
  timestamp: string;
}

export interface EventsRequest {
  version: 1;
  device_id: string;
  browser_token: string | null;
  library: { name: string; version: string } | null;
  /** When the page sent the request, by its clock (corrects each event's timestamp for the page's clock error). */
  sent_at: string | null;
  /** One entry per submitted event, in order: invalid ones carry their errors (answered 400 individually). */
  events: Array<{ ok: true; event: BrowserEvent } | { ok: false; errors: FieldError[] }>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const DEVICE_ID = /^[A-Za-z0-9_-]{8,128}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Validates a POST /js/collect body (already JSON-parsed and within the byte limit). */
export function parseCollectRequest(body: unknown): Parsed<CollectRequest> {
  const errors: FieldError[] = [];
  if (!isObj(body)) return { ok: false, errors: [{ path: '', message: 'must be a JSON object' }] };
  if (body.version !== 1) errors.push({ path: 'version', message: 'must be 1' });
  checkDeviceId(body.device_id, errors);
  checkIdentity(body.identity, 'identity', errors);
  const components = body.components;
  if (!isObj(components)) errors.push({ path: 'components', message: 'must be an object' });
  else {
    const names = Object.keys(components);
    if (names.length > JS_LIMITS.components) errors.push({ path: 'components', message: `at most ${JS_LIMITS.components} components` });
    for (const name of names.slice(0, JS_LIMITS.components)) checkComponent(name, components[name], errors);
  }
  const signals = body.device_signals;
  if (signals !== undefined && signals !== null) {
    if (!isObj(signals)) errors.push({ path: 'device_signals', message: 'must be an object' });
    else if (deeperThan(signals, JS_LIMITS.deviceSignalsDepth)) {
      errors.push({ path: 'device_signals', message: `at most ${JS_LIMITS.deviceSignalsDepth} levels of nesting` });
    } else if (JSON.stringify(signals).length > JS_LIMITS.deviceSignalsJsonChars) {
      errors.push({ path: 'device_signals', message: `at most ${JS_LIMITS.deviceSignalsJsonChars} characters of JSON` });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      version: 1,
      device_id: body.device_id as string,
      ...(typeof body.identity === 'string' ? { identity: body.identity } : {}),
      components: components as Record<string, unknown>,
      device_signals: isObj(signals) ? signals : null,
      library: libraryOf(body.library),
    },
  };
}

/** Validates a POST /js/events body. Whole-request problems fail it; a bad event only fails that event. */
export function parseEventsRequest(body: unknown): Parsed<EventsRequest> {
  const errors: FieldError[] = [];
  if (!isObj(body)) return { ok: false, errors: [{ path: '', message: 'must be a JSON object' }] };
  if (body.version !== 1) errors.push({ path: 'version', message: 'must be 1' });
  checkDeviceId(body.device_id, errors);
  if (body.browser_token !== undefined && body.browser_token !== null && (typeof body.browser_token !== 'string' || body.browser_token.length > 2048)) {
    errors.push({ path: 'browser_token', message: 'must be a string of at most 2048 characters' });
  }
  if (body.sent_at !== undefined && !isDateTime(body.sent_at)) errors.push({ path: 'sent_at', message: 'must be an ISO 8601 date-time with offset' });
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > JS_LIMITS.eventsPerRequest) {
    errors.push({ path: 'events', message: `must be an array of 1..${JS_LIMITS.eventsPerRequest} events` });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      version: 1,
      device_id: body.device_id as string,
      browser_token: typeof body.browser_token === 'string' ? body.browser_token : null,
      library: libraryOf(body.library),
      sent_at: typeof body.sent_at === 'string' ? body.sent_at : null,
      events: (events as unknown[]).map((e, i) => parseEvent(e, `events[${i}]`)),
    },
  };
}

function parseEvent(e: unknown, path: string): { ok: true; event: BrowserEvent } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!isObj(e)) return { ok: false, errors: [{ path, message: 'must be an object' }] };
  if (typeof e.event !== 'string' || e.event.length < 1 || e.event.length > JS_LIMITS.eventNameChars) {
    errors.push({ path: `${path}.event`, message: `must be a string of 1..${JS_LIMITS.eventNameChars} characters` });
  }
  checkIdentity(e.identity, `${path}.identity`, errors);
  if (e.properties !== undefined) {
    if (!isObj(e.properties)) errors.push({ path: `${path}.properties`, message: 'must be an object' });
    else checkProperties(e.properties, `${path}.properties`, errors);
  }
  if (typeof e.event_id !== 'string' || e.event_id.length < 1 || e.event_id.length > JS_LIMITS.eventIdChars) {
    errors.push({ path: `${path}.event_id`, message: `must be a string of 1..${JS_LIMITS.eventIdChars} characters` });
  }
  if (!isDateTime(e.timestamp)) {
    errors.push({ path: `${path}.timestamp`, message: 'must be an ISO 8601 date-time with offset' });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    event: {
      event: e.event as string,
      ...(typeof e.identity === 'string' ? { identity: e.identity } : {}),
      ...(isObj(e.properties) ? { properties: e.properties } : {}),
      event_id: e.event_id as string,
      timestamp: e.timestamp as string,
    },
  };
}

function isDateTime(v: unknown): v is string {
  return typeof v === 'string' && ISO_8601.test(v) && !Number.isNaN(Date.parse(v));
}

function checkDeviceId(v: unknown, errors: FieldError[]) {
  if (typeof v !== 'string' || !DEVICE_ID.test(v)) errors.push({ path: 'device_id', message: 'must be 8..128 characters of [A-Za-z0-9_-]' });
}

function checkIdentity(v: unknown, path: string, errors: FieldError[]) {
  if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > JS_LIMITS.identityChars)) {
    errors.push({ path, message: `must be a string of at most ${JS_LIMITS.identityChars} characters` });
  }
}

function checkComponent(name: string, c: unknown, errors: FieldError[]) {
  const path = `components.${name}`;
  if (name.length > JS_LIMITS.componentNameChars || !/^[a-z0-9_]+$/.test(name)) {
    errors.push({ path, message: 'component names are lower-case [a-z0-9_]' });
    return;
  }
  if (!isObj(c)) {
    errors.push({ path, message: 'must be {value} or {error}' });
    return;
  }
  if ('error' in c) {
    if (typeof c.error !== 'string' || c.error.length > JS_LIMITS.componentErrorChars) {
      errors.push({ path: `${path}.error`, message: `must be a string of at most ${JS_LIMITS.componentErrorChars} characters` });
    }
  } else if ('value' in c) {
    if (deeperThan(c.value, JS_LIMITS.valueDepth)) {
      errors.push({ path: `${path}.value`, message: `at most ${JS_LIMITS.valueDepth} levels of nesting` });
    } else if (JSON.stringify(c.value ?? null).length > JS_LIMITS.componentJsonChars) {
      errors.push({ path: `${path}.value`, message: `at most ${JS_LIMITS.componentJsonChars} characters of JSON` });
    }
  } else errors.push({ path, message: 'must be {value} or {error}' });
  if (c.ms !== undefined && (typeof c.ms !== 'number' || !Number.isFinite(c.ms) || c.ms < 0)) {
    errors.push({ path: `${path}.ms`, message: 'must be a non-negative number' });
  }
}

function checkProperties(props: Record<string, unknown>, path: string, errors: FieldError[]) {
  let keys = 0;
  const walk = (v: unknown, depth: number): boolean => {
    if (depth > JS_LIMITS.propertyDepth) return false;
    if (Array.isArray(v)) return v.every((x) => walk(x, depth + 1));
    if (isObj(v)) {
      keys += Object.keys(v).length;
      return Object.values(v).every((x) => walk(x, depth + 1));
    }
    return true;
  };
  if (!walk(props, 1)) errors.push({ path, message: `at most ${JS_LIMITS.propertyDepth} levels of nesting` });
  if (keys > JS_LIMITS.propertyKeys) errors.push({ path, message: `at most ${JS_LIMITS.propertyKeys} keys` });
}

/**
 * Whether a JSON value nests deeper than `limit`, found without recursion. Checked before JSON.stringify measures a
 * value: stringify recurses, and a value thousands of levels deep would overflow the stack.
 */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function libraryOf(v: unknown): { name: string; version: string } | null {
  return isObj(v) && typeof v.name === 'string' && typeof v.version === 'string' ? { name: v.name.slice(0, 64), version: v.version.slice(0, 32) } : null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
