import { z } from 'zod';
import type { FieldError } from '../errors.js';
import { JS_LIMITS } from './limits.js';

/**
 * The /js request bodies: one zod schema each, which validates the body and is what /openapi.json shows. Messages
 * are written for the page's developer and keep the paths pages have always been answered with (`events[3].timestamp`,
 * `components.fonts.value`). The schemas are built once, here; a request only runs them.
 */

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

/** One message for every way a field can be wrong: a page's developer needs the rule, not zod's reason. */
const says = (message: string) => ({ error: message });

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const DATE_TIME = 'must be an ISO 8601 date-time with offset';
// abort: a string that is not ISO 8601 gets one message, not a second one from Date.parse.
const dateTime = () =>
  z
    .string(says(DATE_TIME))
    .regex(ISO_8601, { error: DATE_TIME, abort: true })
    .refine((v) => !Number.isNaN(Date.parse(v)), says(DATE_TIME))
    .meta({ format: 'date-time' });

const DEVICE_ID = 'must be 8..128 characters of [A-Za-z0-9_-]';
const deviceId = z
  .string(says(DEVICE_ID))
  .regex(/^[A-Za-z0-9_-]{8,128}$/, says(DEVICE_ID))
  .describe('The device id the library keeps for this browser.');

const IDENTITY = `must be a string of at most ${JS_LIMITS.identityChars} characters`;
const identity = z.string(says(IDENTITY)).max(JS_LIMITS.identityChars, says(IDENTITY)).nullish();

/** Who sent the body; a library that is not two strings is ignored, never refused. */
const library = z
  .object({ name: z.string(), version: z.string() })
  .transform((l) => ({ name: l.name.slice(0, 64), version: l.version.slice(0, 32) }))
  .optional()
  .catch(undefined)
  .describe('Ignored unless both are strings.');

const sentAt = (use: string) => dateTime().optional().describe(`When the page sent the request, by its own clock; ${use}.`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** A JSON value of at most `depth` levels and `chars` characters (the value itself is level 1). */
const boundedJson = (depth: number, chars: number) => (value: unknown, ctx: z.RefinementCtx) => {
  if (deeperThan(value, depth)) ctx.addIssue({ code: 'custom', message: `at most ${depth} levels of nesting` });
  else if (JSON.stringify(value ?? null).length > chars) ctx.addIssue({ code: 'custom', message: `at most ${chars} characters of JSON` });
};

/*
 * A component is {value} or, from a source that failed, {error}. Zod reports the issues of the one branch that is
 * not aborted, and "must be {value} or {error}" when both are. A missing key aborts a branch, so the branch is chosen
 * by the keys the component has; for that, the checks of `error` and `ms` are refinements (which do not abort, as
 * a wrong type would) and their JSON Schema is stated. Other keys are kept, as the page sent them.
 */
const MS = 'must be a non-negative number';
const ms = z
  .unknown()
  .refine((v) => typeof v === 'number' && v >= 0, says(MS))
  .meta({ type: 'number', minimum: 0 })
  .optional()
  .describe('How long the source took.');
const COMPONENT_ERROR = `must be a string of at most ${JS_LIMITS.componentErrorChars} characters`;
/** A key the branch needs: absent, it aborts the branch. */
const present = () => z.unknown().refine((v) => v !== undefined, { error: 'required', abort: true });
const componentError = present()
  .refine((v) => typeof v === 'string' && v.length <= JS_LIMITS.componentErrorChars, says(COMPONENT_ERROR))
  .meta({ type: 'string', maxLength: JS_LIMITS.componentErrorChars });

const component = z.union(
  [
    z
      .object({
        value: present()
          .superRefine(boundedJson(JS_LIMITS.valueDepth, JS_LIMITS.componentJsonChars))
          .describe(`At most ${JS_LIMITS.componentJsonChars} characters of JSON.`),
        ms,
      })
      .loose(),
    z.object({ error: componentError, ms }).loose(),
  ],
  says('must be {value} or {error}'),
);

const COMPONENT_NAME = 'component names are lower-case [a-z0-9_]';
const TOO_MANY = `at most ${JS_LIMITS.components} components`;
const components = z
  .record(
    z
      .string()
      .max(JS_LIMITS.componentNameChars)
      .regex(/^[a-z0-9_]+$/),
    component,
    { error: (issue) => (issue.code === 'invalid_key' ? COMPONENT_NAME : 'must be an object') },
  )
  .refine((c) => Object.keys(c).length <= JS_LIMITS.components, {
    message: TOO_MANY,
    // Counted whatever the components themselves say.
    when: (payload) => isObject(payload.value),
  })
  .meta({ maxProperties: JS_LIMITS.components });

export const collectRequestSchema = z.object(
  {
    version: z.literal(1, says('must be 1')),
    device_id: deviceId,
    identity,
    components,
    device_signals: z
      .record(z.string(), z.unknown(), says('must be an object'))
      .superRefine(boundedJson(JS_LIMITS.deviceSignalsDepth, JS_LIMITS.deviceSignalsJsonChars))
      .nullish()
      .describe(`Automation evidence; at most ${JS_LIMITS.deviceSignalsJsonChars} characters of JSON.`),
    library,
    // Not used by a collection, so never a reason to refuse one.
    sent_at: sentAt('accepted and not used here').catch(undefined),
  },
  says('must be a JSON object'),
);

/** Properties are checked as POST /events checks them: levels (arrays count) and keys over every level. */
function boundedProperties(props: Record<string, unknown>, ctx: z.RefinementCtx) {
  let keys = 0;
  const walk = (v: unknown, depth: number): boolean => {
    if (depth > JS_LIMITS.propertyDepth) return false;
    if (Array.isArray(v)) return v.every((x) => walk(x, depth + 1));
    if (isObject(v)) {
      keys += Object.keys(v).length;
      return Object.values(v).every((x) => walk(x, depth + 1));
    }
    return true;
  };
  if (!walk(props, 1)) ctx.addIssue({ code: 'custom', message: `at most ${JS_LIMITS.propertyDepth} levels of nesting` });
  if (keys > JS_LIMITS.propertyKeys) ctx.addIssue({ code: 'custom', message: `at most ${JS_LIMITS.propertyKeys} keys` });
}

const EVENT = `must be a string of 1..${JS_LIMITS.eventNameChars} characters`;
const EVENT_ID = `must be a string of 1..${JS_LIMITS.eventIdChars} characters`;

export const browserEventSchema = z.object(
  {
    event: z.string(says(EVENT)).min(1, says(EVENT)).max(JS_LIMITS.eventNameChars, says(EVENT)),
    identity,
    properties: z
      .record(z.string(), z.unknown(), says('must be an object'))
      .superRefine(boundedProperties)
      .optional()
      .describe(`At most ${JS_LIMITS.propertyDepth} levels and ${JS_LIMITS.propertyKeys} keys; checked like POST /events.`),
    event_id: z.string(says(EVENT_ID)).min(1, says(EVENT_ID)).max(JS_LIMITS.eventIdChars, says(EVENT_ID)),
    timestamp: dateTime(),
  },
  says('must be an object'),
);

const EVENTS = `must be an array of 1..${JS_LIMITS.eventsPerRequest} events`;
const BROWSER_TOKEN = 'must be a string of at most 2048 characters';

/** The request around its events: wrong, it fails the whole request. Each event is then judged on its own. */
const eventsEnvelope = z.object(
  {
    version: z.literal(1, says('must be 1')),
    device_id: deviceId,
    browser_token: z
      .string(says(BROWSER_TOKEN))
      .max(2048, says(BROWSER_TOKEN))
      .nullish()
      .describe('From POST /js/collect; links the events to that handprint.'),
    library,
    sent_at: sentAt("each event's timestamp is corrected by the page's clock error (time received − sent_at)"),
    events: z.array(z.unknown(), says(EVENTS)).min(1, says(EVENTS)).max(JS_LIMITS.eventsPerRequest, says(EVENTS)),
  },
  says('must be a JSON object'),
);

/** The whole request as documented: a request whose events all pass. */
export const eventsRequestSchema = eventsEnvelope.extend({
  events: z
    .array(browserEventSchema)
    .min(1)
    .max(JS_LIMITS.eventsPerRequest)
    .describe('An event that fails validation is answered 400 in its own result; the others are stored.'),
});

/** Zod's issues as the field errors pages are answered with: `components.fonts.value`, `events[3].timestamp`. */
function fieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  return error.issues.map((issue) => ({ path: [prefix, ...issue.path.map(String)].filter((p, i) => i > 0 || p).join('.'), message: issue.message }));
}

/**
 * Too many components: pages have always been told so first, then of the first 64 components' faults only (what a
 * developer fixes first; the list stays bounded). Zod counts after checking each, so the issues are put in that order.
 */
function tooManyFirst(error: z.ZodError, body: unknown): z.ZodError {
  const count = error.issues.find((i) => i.path.length === 1 && i.path[0] === 'components' && i.message === TOO_MANY);
  if (!count) return error;
  const counted = new Set(Object.keys((body as { components: object }).components).slice(0, JS_LIMITS.components));
  const ofComponent = (i: z.core.$ZodIssue) => i.path[0] === 'components' && i.path.length > 1;
  const issues = error.issues.filter((i) => i !== count && (!ofComponent(i) || counted.has(String(i.path[1]))));
  const at = issues.findIndex((i) => ofComponent(i) || i.path[0] === 'device_signals');
  issues.splice(at < 0 ? issues.length : at, 0, count);
  return new z.ZodError(issues);
}

/** Validates a POST /js/collect body (already JSON-parsed and within the byte limit). */
export function parseCollectRequest(body: unknown): Parsed<CollectRequest> {
  const parsed = collectRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrors(tooManyFirst(parsed.error, body)) };
  const { device_id, identity, components, device_signals, library } = parsed.data;
  return {
    ok: true,
    value: {
      version: 1,
      device_id,
      ...(typeof identity === 'string' ? { identity } : {}),
      components,
      device_signals: device_signals ?? null,
      library: library ?? null,
    },
  };
}

/** Validates a POST /js/events body. Whole-request problems fail it; a bad event only fails that event. */
export function parseEventsRequest(body: unknown): Parsed<EventsRequest> {
  const parsed = eventsEnvelope.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const request = parsed.data;
  return {
    ok: true,
    value: {
      version: 1,
      device_id: request.device_id,
      browser_token: request.browser_token ?? null,
      library: request.library ?? null,
      sent_at: request.sent_at ?? null,
      events: request.events.map((e, i) => parseEvent(e, `events[${i}]`)),
    },
  };
}

function parseEvent(e: unknown, path: string): { ok: true; event: BrowserEvent } | { ok: false; errors: FieldError[] } {
  const parsed = browserEventSchema.safeParse(e);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error, path) };
  const { event, identity, properties, event_id, timestamp } = parsed.data;
  return {
    ok: true,
    event: { event, ...(typeof identity === 'string' ? { identity } : {}), ...(properties ? { properties } : {}), event_id, timestamp },
  };
}
