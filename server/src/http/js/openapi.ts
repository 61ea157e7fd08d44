import { JS_LIMITS } from '@vigil/browser/server-kit';

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const pageErrors = {
  '400': problem('Invalid JSON or fields; `errors` lists each {path, message}.'),
  '401': problem('Authorization is malformed, or the client key is unknown or revoked.'),
  '403': problem('origin_not_allowed (Origin not in VIGIL_JS_ALLOWED_ORIGINS and no client key) or write_key_not_allowed.'),
  '413': problem('Body larger than allowed.'),
  '415': problem('Content-Type is not application/json.'),
  '429': problem('Per-IP rate limit exceeded; see Retry-After.'),
  '503': problem('Not stored; retry.'),
};

const jsonBody = (description: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema: { type: 'object' } } },
});

/** The /js routes (the browser library's), for buildOpenApi; the full contract is clients/browser/SERVER_CONTRACT.md. */
export function jsOpenApiPaths(): Record<string, unknown> {
  const security = [{}, { clientKey: [] }];
  return {
    '/js': {
      get: {
        summary: 'The browser library as one script (window.Vigil); cached 5 minutes, with ETag and a Link to the versioned file',
        responses: { '200': { description: 'text/javascript' }, '304': { description: 'Not modified (If-None-Match)' } },
      },
    },
    '/js/{file}': {
      get: {
        summary: 'The same script under its versioned name (vigil.<version>.<hash>.min.js), cached forever',
        parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'text/javascript' }, '404': problem('No such file') },
      },
    },
    '/js/collect': {
      post: {
        summary: 'Entropy components in; handprint_id, device_id, confidence, is_new_handprint, browser_token, expires_at out',
        description: `From an allowed page origin (CORS), optionally with a client key; never a write key. Body ≤ ${JS_LIMITS.collectBodyBytes} bytes.`,
        security,
        requestBody: jsonBody('{version: 1, device_id, identity?, components: {name: {value} | {error}}, device_signals?, library?}'),
        responses: { '200': { description: 'Signals (never risk scores or tags)' }, ...pageErrors },
      },
    },
    '/js/events': {
      post: {
        summary: 'A batch of page events, each stored like POST /events with the browser handprint',
        description: `≤ ${JS_LIMITS.eventsPerRequest} events, body ≤ ${JS_LIMITS.eventsBodyBytes} bytes. Answers {results: [{status, event_id} | {status, error}], warnings?}.`,
        security,
        requestBody: jsonBody('{version: 1, device_id, browser_token?, events: [{event, identity?, properties?, event_id, timestamp}]}'),
        responses: { '200': { description: 'Per-event results, in order' }, ...pageErrors },
      },
    },
  };
}
