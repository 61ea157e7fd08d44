import { JS_LIMITS } from '../../js/limits.js';
import { guarded, jsonBody, ok, problem, problems, ref, requestSchema, responseSchema, withBody } from '../openapi-kit.js';
import { collectRequestSchema, collectResponseSchema, eventsRequestSchema, eventsResponseSchema } from './schemas.js';

const pageErrors = problems([...withBody, ...guarded], {
  401: 'Authorization is malformed, or the client key is unknown or revoked.',
  403: 'origin_not_allowed (Origin not in VIGIL_JS_ALLOWED_ORIGINS and no client key) or write_key_not_allowed.',
  429: 'Per-IP rate limit exceeded; see Retry-After.',
  503: 'Not stored; retry after Retry-After.',
});

const script = (description: string) => ({ description, content: { 'text/javascript': { schema: { type: 'string' } } } });
const ifNoneMatch = { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } };
const scriptResponses = {
  '200': script('The library (window.Vigil)'),
  '304': { description: 'Not modified (If-None-Match)' },
  '400': problem('A malformed request (a header or path the HTTP parser refuses).'),
  '503': problem('The browser library is not built.'),
};

/** The /js routes (the browser library's), for buildOpenApi; the full contract is clients/browser/SERVER_CONTRACT.md. */
export function jsOpenApi() {
  // A page is authorised by its Origin; a client key instead waives the Origin check (native webviews, tests).
  const security = [{ pageOrigin: [] }, { clientKey: [] }];
  return {
    securitySchemes: {
      pageOrigin: {
        type: 'apiKey',
        in: 'header',
        name: 'Origin',
        description: 'The page origin the browser sends; it must be in VIGIL_JS_ALLOWED_ORIGINS.',
      },
    },
    schemas: {
      JsCollect: requestSchema(collectRequestSchema),
      JsCollectAnswer: responseSchema(collectResponseSchema),
      JsEvents: requestSchema(eventsRequestSchema),
      JsEventsAnswer: responseSchema(eventsResponseSchema),
    },
    paths: {
      '/js': {
        get: {
          operationId: 'getScript',
          summary: 'The browser library as one script (window.Vigil); cached 5 minutes, with ETag and a Link to the versioned file',
          parameters: [ifNoneMatch],
          responses: scriptResponses,
        },
      },
      '/js/{file}': {
        get: {
          operationId: 'getVersionedScript',
          summary: 'The same script under its versioned name (vigil.<version>.<hash>.min.js), cached forever',
          parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' }, examples: { latest: { value: 'vigil.min.js' } } }, ifNoneMatch],
          responses: { ...scriptResponses, '404': problem('No such file') },
        },
      },
      '/js/collect': {
        post: {
          operationId: 'postJsCollect',
          summary: 'Entropy components in; handprint_id, device_id, confidence, is_new_handprint, browser_token, expires_at out',
          description: `From an allowed page origin (CORS), optionally with a client key; never a write key. Body ≤ ${JS_LIMITS.collectBodyBytes} bytes.`,
          security,
          requestBody: jsonBody(ref('JsCollect')),
          responses: {
            '200': {
              ...ok('Signals (never risk scores or tags)', ref('JsCollectAnswer')),
              links: {
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
            },
            ...pageErrors,
          },
        },
      },
      '/js/events': {
        post: {
          operationId: 'postJsEvents',
          summary: 'A batch of page events, each stored like POST /events with the browser handprint',
          description: `≤ ${JS_LIMITS.eventsPerRequest} events, body ≤ ${JS_LIMITS.eventsBodyBytes} bytes.`,
          security,
          requestBody: jsonBody(ref('JsEvents')),
          responses: { '200': ok('Per-event results, in order', ref('JsEventsAnswer')), ...pageErrors },
        },
      },
    },
  };
}
