import { JS_LIMITS } from '../../js/limits.js';
import { z } from 'zod';
import { checkedByHandler, guarded, json, problem, problems, securedBy, withBody } from '../route-schemas.js';
import { collectRequestSchema, eventsRequestSchema } from '../../js/schemas.js';
import { collectResponseSchema, eventsResponseSchema } from './schemas.js';

/**
 * The /js routes' schemas (the full contract is clients/browser/SERVER_CONTRACT.md). The handlers validate the bodies
 * with these same zod schemas (js/schemas.ts): a bad event fails only itself, which Fastify's whole-body validation
 * cannot express, and the collection is validated where it is read.
 */

const pageErrors = problems([...withBody, ...guarded], {
  401: 'Authorization is malformed, or the client key is unknown or revoked.',
  403: 'origin_not_allowed (Origin not in VIGIL_JS_ALLOWED_ORIGINS and no client key) or write_key_not_allowed.',
  429: 'Per-IP rate limit exceeded; see Retry-After.',
  503: 'Not stored; retry after Retry-After.',
});

const ifNoneMatch = checkedByHandler(z.object({ 'If-None-Match': z.string().optional() }));
const scriptResponses = {
  200: { description: 'The library (window.Vigil)', content: { 'text/javascript': { schema: z.string() } } },
  304: z.null().describe('Not modified (If-None-Match)'),
  400: problem('A malformed request (a header or path the HTTP parser refuses).'),
  503: problem('The browser library is not built.'),
};

// A page is authorised by its Origin; a client key instead waives the Origin check (native webviews, tests).
const security = securedBy('pageOrigin', 'clientKey');

export const scriptSchema = {
  operationId: 'getScript',
  summary: 'The browser library as one script (window.Vigil); cached 5 minutes, with ETag and a Link to the versioned file',
  headers: ifNoneMatch,
  response: scriptResponses,
};

export const versionedScriptSchema = {
  operationId: 'getVersionedScript',
  summary: 'The same script under its versioned name (vigil.<version>.<hash>.min.js), cached forever',
  params: checkedByHandler(z.object({ file: z.string().meta({ examples: ['vigil.min.js'] }) })),
  headers: ifNoneMatch,
  response: { ...scriptResponses, 404: problem('No such file') },
};

export const collectSchema = {
  operationId: 'postJsCollect',
  summary: 'Entropy components in; handprint_id, device_id, confidence, is_new_handprint, browser_token, expires_at out',
  description: `From an allowed page origin (CORS), optionally with a client key; never a write key. Body ≤ ${JS_LIMITS.collectBodyBytes} bytes.`,
  security,
  body: checkedByHandler(collectRequestSchema),
  response: { 200: json('Signals (never risk scores or tags)', collectResponseSchema), ...pageErrors },
};

export const collectLinks = {
  200: {
    PageEvents: {
      operationId: 'postJsEvents',
      description: 'The same page sends events with its device_id and browser_token.',
      requestBody: { device_id: '$response.body#/device_id', browser_token: '$response.body#/browser_token' },
    },
    BackendEvent: {
      operationId: 'postEvent',
      description: "The site's backend sends an event carrying the page's browser_token.",
      requestBody: { properties: { browser_token: '$response.body#/browser_token' } },
    },
    Registration: { operationId: 'getDeviceRegistration', parameters: { device_id: '$response.body#/device_id' } },
  },
};

export const eventsSchema = {
  operationId: 'postJsEvents',
  summary: 'A batch of page events, each stored like POST /events with the browser handprint',
  description: `≤ ${JS_LIMITS.eventsPerRequest} events, body ≤ ${JS_LIMITS.eventsBodyBytes} bytes.`,
  security,
  body: checkedByHandler(eventsRequestSchema),
  response: { 200: json('Per-event results, in order', eventsResponseSchema), ...pageErrors },
};
