import { z } from 'zod';
import { JS_LIMITS } from '../../js/limits.js';
import { problemBodySchema } from '../route-schemas.js';

/**
 * The /js bodies as zod schemas, declared on the routes for /openapi.json. The routes validate with the browser kit's own parser
 * (parseCollectRequest, parseEventsRequest); schemas.test.ts holds the two to the same verdicts.
 */

const deviceId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,128}$/)
  .describe('The device id the library keeps for this browser.');
const identity = z.string().max(JS_LIMITS.identityChars).nullish();
const library = z.object({ name: z.string(), version: z.string() }).describe('Ignored unless both are strings.');
const sentAt = (use: string) => z.iso.datetime({ offset: true }).optional().describe(`When the page sent the request, by its own clock; ${use}.`);
const ms = z.number().nonnegative().optional().describe('How long the source took.');

const component = z.union([
  z.object({ value: z.unknown().describe(`At most ${JS_LIMITS.componentJsonChars} characters of JSON.`), ms }),
  z.object({ error: z.string().max(JS_LIMITS.componentErrorChars), ms }),
]);

export const collectRequestSchema = z.object({
  version: z.literal(1),
  device_id: deviceId,
  identity,
  components: z
    .record(
      z
        .string()
        .max(JS_LIMITS.componentNameChars)
        .regex(/^[a-z0-9_]+$/),
      component,
    )
    .refine((c) => Object.keys(c).length <= JS_LIMITS.components, `at most ${JS_LIMITS.components} components`)
    .meta({ maxProperties: JS_LIMITS.components }),
  device_signals: z.record(z.string(), z.unknown()).nullish().describe(`Automation evidence; at most ${JS_LIMITS.deviceSignalsJsonChars} characters of JSON.`),
  library: library.optional(),
  sent_at: sentAt('accepted and not used here'),
});

export const browserEventSchema = z.object({
  event: z.string().min(1).max(JS_LIMITS.eventNameChars),
  identity,
  properties: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(`At most ${JS_LIMITS.propertyDepth} levels and ${JS_LIMITS.propertyKeys} keys; checked like POST /events.`),
  event_id: z.string().min(1).max(JS_LIMITS.eventIdChars),
  timestamp: z.iso.datetime({ offset: true }),
});

export const eventsRequestSchema = z.object({
  version: z.literal(1),
  device_id: deviceId,
  browser_token: z.string().max(2048).nullish().describe('From POST /js/collect; links the events to that handprint.'),
  library: library.optional(),
  sent_at: sentAt("each event's timestamp is corrected by the page's clock error (time received − sent_at)"),
  events: z
    .array(browserEventSchema)
    .min(1)
    .max(JS_LIMITS.eventsPerRequest)
    .describe('An event that fails validation is answered 400 in its own result; the others are stored.'),
});

export const collectResponseSchema = z.object({
  handprint_id: z.string(),
  device_id: z.string(),
  confidence: z.number().min(0).max(1),
  is_new_handprint: z.boolean(),
  browser_token: z.string(),
  expires_at: z.string().describe('ISO 8601 date-time'),
});

/** What the page learns of each event: stored or not, never its insights. */
export const eventsResponseSchema = z.object({
  results: z.array(z.union([z.object({ status: z.literal(200), event_id: z.string() }), z.object({ status: z.number().int(), error: problemBodySchema })])),
  warnings: z.array(z.object({ code: z.string(), message: z.string() })).optional(),
});
