import { z } from 'zod';
import { limits } from './limits.js';
import { storableString } from '../db/safe-text.js';
import { storableTree } from '../db/storable.js';

const text = (max: number) => storableString().max(max);

/**
 * When the sender sent the request, by its own clock. The offset between it and the time Vigil received the
 * request is the sender's clock error, and `properties.timestamp` is moved by it: a device whose clock is an hour
 * fast still has its events stored at the right time.
 */
const sentAtSchema = z.iso
  .datetime({ offset: true })
  .optional()
  .describe(
    "ISO 8601 time the request was sent, by the sender's clock. When given, properties.timestamp is corrected by the sender's clock error (time received − sent_at) before it is checked and stored.",
  );

/** Magic properties: keys in `properties` that Vigil reads. Wrong types are 400s, not silent drops. */
export const magicPropertiesSchema = z.object({
  ip_address: text(64).optional().describe('Client IP address (IPv4 or IPv6). Alias: ip.'),
  ip: text(64).optional().describe('Alias of ip_address.'),
  user_agent: text(limits.userAgentMax).optional().describe("Client user agent; default: the request's User-Agent."),
  accept_language: text(limits.userAgentMax)
    .optional()
    .describe(
      "The end user's Accept-Language, forwarded by a backend; default: the request's Accept-Language. Its first preference is part of the server-side handprint.",
    ),
  device_id: text(limits.idMax).min(1).optional().describe('Device identifier from the Android or browser library.'),
  session_id: text(limits.idMax).min(1).optional().describe('Session identifier, for behaviors grouped by session.'),
  email: text(320).optional().describe('E-mail address, for e-mail intelligence.'),
  phone: text(64).optional().describe('Phone number, for phone intelligence.'),
  event_id: text(limits.idMax).min(1).optional().describe('Idempotency key: a repeat under the same key returns the first response.'),
  timestamp: z.iso.datetime({ offset: true }).optional().describe('ISO 8601 time the event happened (default: now); at most 5 minutes in the future.'),
  device_model: text(200).optional().describe('Device model, reported in device.model.'),
  os_version: text(100).optional().describe('OS version, reported in device.os_version.'),
  browser_token: text(2048)
    .optional()
    .describe(
      "Token from the browser library (get().browser_token): links the event to that browser's handprint and device_id. Refused tokens are reported in warnings.",
    ),
  device_signals: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Automation and integrity evidence from a client library (device_signals block), passed through as given.'),
});

export const eventInputSchema = z
  .object({
    event: text(limits.eventNameMax).min(1).describe('Name of the event, chosen by the caller.'),
    identity: text(limits.identityMax).min(1).nullish().describe('User identifier (e-mail address, user id, …).'),
    properties: z
      .record(z.string(), z.unknown())
      .superRefine(storableTree({ maxDepth: limits.propertiesMaxDepth, maxKeys: limits.propertiesMaxKeys }))
      .pipe(magicPropertiesSchema.loose())
      .optional()
      .describe('Caller-chosen properties; magic properties (see MagicProperties) are read by Vigil.'),
    sent_at: sentAtSchema,
  })
  .strict();

export type EventInput = z.infer<typeof eventInputSchema>;

export const batchInputSchema = z
  .object({
    events: z
      .array(z.unknown())
      .min(1)
      .max(limits.batchMaxEvents)
      .describe(`1 to ${limits.batchMaxEvents} events, each validated on its own and answered in order.`),
    sent_at: sentAtSchema,
  })
  .strict();
