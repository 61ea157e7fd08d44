import { z } from 'zod';
import { unstorable } from '../db/safe-text.js';
import { jsonTreeStorable } from '../db/storable.js';
import { limits } from './limits.js';
import { eventInputSchema, magicPropertiesSchema, type EventInput } from './schema.js';

/**
 * The common event body checked without running zod, which costs more per event than anything else in validation
 * (a record pass, a tree pass and an object pass over `properties`, each building a new object). It never decides
 * alone: `fastEventInput` returns the body only when `eventInputSchema` would accept it and return an equal value,
 * and undefined for anything else (an error, or a shape it does not know), so that the schema decides and writes
 * the 400 exactly as before. The checks of the magic properties are read from the schema itself (its JSON
 * Schema), so a property added there is checked here too, or sends its bodies to the schema.
 */

type Check = (value: unknown) => boolean;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A storable string within `min`..`max` UTF-16 code units, as zod counts them. */
const text =
  (min: number, max: number, pattern?: RegExp): Check =>
  (value) =>
    typeof value === 'string' && value.length >= min && value.length <= max && unstorable(value) === undefined && (pattern?.test(value) ?? true);

/** A check for one property's JSON Schema, or undefined when it says more than this file understands. */
function checkOf(schema: Record<string, unknown>): Check | undefined {
  const { type, minLength = 0, maxLength = Number.POSITIVE_INFINITY, format, pattern, ...rest } = schema;
  if (type === 'string' && Object.keys(rest).length === 0 && (format === undefined || typeof pattern === 'string')) {
    return text(minLength as number, maxLength as number, typeof pattern === 'string' ? new RegExp(pattern) : undefined);
  }
  const record = { propertyNames: { type: 'string' }, additionalProperties: {} };
  if (type === 'object' && format === undefined && JSON.stringify(rest) === JSON.stringify(record)) return isPlainObject;
  return undefined;
}

// An empty registry: the global one names the schema as an OpenAPI component, which would turn it into a $ref.
const magicSchema = z.toJSONSchema(magicPropertiesSchema, { metadata: z.registry(), io: 'input', unrepresentable: 'any' }) as {
  properties?: Record<string, Record<string, unknown>>;
};
const magicChecks = new Map(
  Object.entries(magicSchema.properties ?? {}).flatMap(([key, schema]) => {
    const check = checkOf(schema);
    return check ? [[key, check] as const] : [];
  }),
);
/**
 * `sent_at`, checked as the schema describes it, or left to the schema when this file cannot: every request of the
 * client libraries carries it, so leaving it to the schema would send them all the slow way.
 */
const sentAt = checkOf(
  (z.toJSONSchema(eventInputSchema.pick({ sent_at: true }), { metadata: z.registry(), io: 'input' }) as { properties: Record<string, Record<string, unknown>> })
    .properties.sent_at!,
);
/** Magic properties this file cannot check (by the schema's own list): a body carrying one goes to the schema. */
const unchecked = new Set(Object.keys(magicPropertiesSchema.shape).filter((key) => !magicChecks.has(key)));

const eventName = text(1, limits.eventNameMax);
const identity = text(1, limits.identityMax);
const treeLimits = { maxDepth: limits.propertiesMaxDepth, maxKeys: limits.propertiesMaxKeys };
/** The top-level fields of an event body this file checks. */
const topLevel = new Set(Object.keys(eventInputSchema.shape).filter((key) => key !== 'sent_at' || sentAt));

/** `body` as an EventInput when it certainly is one, else undefined: then run `eventInputSchema`. */
export function fastEventInput(body: unknown): EventInput | undefined {
  if (!isPlainObject(body)) return undefined;
  for (const key in body) if (!topLevel.has(key)) return undefined;
  if (!eventName(body.event)) return undefined;
  if (body.identity !== undefined && body.identity !== null && !identity(body.identity)) return undefined;
  if (body.sent_at !== undefined && !sentAt?.(body.sent_at)) return undefined;
  const properties = body.properties;
  if (properties !== undefined) {
    if (!isPlainObject(properties)) return undefined;
    for (const key in properties) {
      if (key === '__proto__' || unchecked.has(key)) return undefined;
      const check = magicChecks.get(key);
      if (check && !check(properties[key])) return undefined;
    }
    if (!jsonTreeStorable(properties, treeLimits)) return undefined;
  }
  return body as EventInput;
}
