import { z } from 'zod';
import { problemBodySchema } from '../route-schemas.js';

// The answers of the /js routes; the request bodies' schemas validate them and live with the /js code (js/schemas.ts).

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
