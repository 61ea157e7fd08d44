import { z } from 'zod';
import type { Insights } from '../pipeline/insights.js';

/**
 * The request body the Honeypot SDKs (honeypot-py and its siblings) post to `/events`: a flat object with the
 * event under `event_name`. Accepted so a backend on such an SDK moves to Vigil by changing its URL and key.
 * Fields are lenient because the SDK sends `""` and `null` for what it does not know; unknown fields are ignored.
 */
export const honeypotEventSchema = z
  .object({
    event_name: z.string().min(1).describe('Name of the event (becomes `event`).'),
    user_id: z.union([z.string(), z.number()]).nullish().describe('User identifier (becomes `identity`).'),
    event_properties: z.record(z.string(), z.unknown()).nullish().describe('Caller properties (become `properties`).'),
    ip_address: z.string().nullish().describe('Client IP (becomes properties.ip_address; "" is ignored).'),
    user_agent: z.string().nullish().describe('Client user agent (becomes properties.user_agent).'),
    browser_token: z.string().nullish().describe('Browser token (becomes properties.browser_token).'),
    device_id: z.string().nullish().describe('Device id (becomes properties.device_id).'),
    anonymous_id: z.string().nullish().describe('Anonymous id (becomes properties.anonymous_id).'),
    path: z.string().nullish().describe('Path of the original request (becomes properties.request_path).'),
    method: z.string().nullish().describe('Method of the original request (becomes properties.request_method).'),
    timestamp: z.string().nullish().describe('When it happened (becomes properties.timestamp).'),
    orig_request_headers: z.unknown().optional().describe("Never read nor stored: it carries end users' cookies and credentials."),
    orig_request_body: z.unknown().optional().describe("Never read nor stored: it carries end users' passwords and tokens."),
    orig_request_params: z.unknown().optional().describe('Never read nor stored: query strings carry tokens too.'),
  })
  .loose();

export type HoneypotEventInput = z.infer<typeof honeypotEventSchema>;

/** A body in the Honeypot shape: it names its event `event_name` and has no Vigil `event`. */
export function isHoneypotEvent(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'event_name' in body && !('event' in body);
}

/** Top-level Honeypot fields and the property each becomes; every one of them is a Vigil magic property or plain property. */
const TOP_LEVEL: [keyof HoneypotEventInput, string][] = [
  ['ip_address', 'ip_address'],
  ['user_agent', 'user_agent'],
  ['browser_token', 'browser_token'],
  ['device_id', 'device_id'],
  ['anonymous_id', 'anonymous_id'],
  ['path', 'request_path'],
  ['method', 'request_method'],
  ['timestamp', 'timestamp'],
];

/**
 * The Vigil event for a Honeypot body (still to be validated by `eventInputSchema`). Top-level request fields
 * fill properties the caller did not set; empty strings and nulls (the SDK's "unknown") are left out, as is the
 * `email: ""` the SDK adds for anonymous users. The original request's headers, body and query are dropped.
 */
export function fromHoneypot(input: HoneypotEventInput): { event: string; identity?: string; properties: Record<string, unknown> } {
  const properties: Record<string, unknown> = {};
  for (const [field, property] of TOP_LEVEL) {
    const value = input[field];
    if (typeof value === 'string' && value !== '') properties[property] = value;
  }
  for (const [key, value] of Object.entries(input.event_properties ?? {})) {
    if (key === 'email' && value === '') continue;
    properties[key] = value;
  }
  const identity = input.user_id === null || input.user_id === undefined || input.user_id === '' ? undefined : String(input.user_id);
  return { event: input.event_name, ...(identity === undefined ? {} : { identity }), properties };
}

/**
 * The answer in the shape the Honeypot SDKs read: the insights under `honey`, with the behaviour counters also under
 * `dynamic_features` (what their `feature("name.count")` reads); `has_tag` reads `honey.current_tags`.
 */
export function honeypotAnswer(insights: Insights): { honey: Insights & { dynamic_features: Insights['behaviors'] } } {
  return { honey: { ...insights, dynamic_features: insights.behaviors } };
}
