import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JS_LIMITS } from '../../js/limits.js';
import type { KeyStore } from '../../auth/key-store.js';
import type { Env } from '../../config/env.js';
import { VigilError } from '../../errors.js';
import type { BrowserSupport } from '../../js/browser.js';
import { ingestBrowserEvents } from '../../js/events.js';
import type { Ingestor } from '../../ingest/ingestor.js';
import { header, requestContext } from '../../ingest/accept.js';
import { jsGuard, preflight } from '../js/guard.js';
import { collectLinks, collectSchema, eventsSchema, scriptSchema, versionedScriptSchema } from '../js/openapi.js';
import { loadBrowserScript, type BrowserScript } from '../js/script.js';
import { MemoryRateLimiter } from '../rate-limit/memory.js';
import { noopRateLimiter } from '../rate-limit/noop.js';
import type { RateLimiter } from '../rate-limit/interface.js';

export interface JsRouteDeps {
  env: Env;
  keys: KeyStore;
  ingestor: Ingestor;
  browser: BrowserSupport;
  log: { error(obj: object, msg: string): void };
}

const SCRIPT_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  // The script is public and may be loaded with SRI (crossorigin) or on COEP pages.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};

const limiter = (rps: number, burst: number): RateLimiter => (rps === 0 ? noopRateLimiter : new MemoryRateLimiter({ ratePerSecond: rps, burst }));

/**
 * | Route               | Who                    | Answer                                                      |
 * |---------------------|------------------------|-------------------------------------------------------------|
 * | GET /js             | `<script src>`         | the library, cached 5 min, canonical link to the versioned file |
 * | GET /js/{versioned} | pinned pages           | the same bytes, cached forever                              |
 * | OPTIONS /js/*       | browsers (preflight)   | allowed origins only                                        |
 * | POST /js/collect    | `Vigil.get()`          | handprint_id, device_id, confidence, browser_token          |
 * | POST /js/events     | `Vigil.track()`        | per-event results; ingested like POST /events               |
 * No write key ever (403); a client key is optional. See clients/browser/SERVER_CONTRACT.md.
 */
export function jsRoutes(app: FastifyInstance, deps: JsRouteDeps): void {
  let script: BrowserScript | undefined;
  const loadScript = (request: FastifyRequest): BrowserScript => {
    try {
      script ??= loadBrowserScript();
      return script;
    } catch (error) {
      request.log.error({ err: error }, 'browser library script not found');
      throw new VigilError('unavailable', 'The browser library is not built; run `pnpm build` (it builds clients/browser)');
    }
  };

  const sendScript = (request: FastifyRequest, reply: FastifyReply, immutable: boolean) => {
    const s = loadScript(request);
    const etag = `"${s.integrity}"`;
    reply.headers({
      ...SCRIPT_HEADERS,
      etag,
      link: `</js/${s.versionedFile}>; rel="canonical"`,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    });
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.status(304).send();
    return reply.send(s.bytes);
  };

  app.get('/js', { schema: scriptSchema }, async (request, reply) => sendScript(request, reply, false));
  app.get<{ Params: { file: string } }>('/js/:file', { schema: versionedScriptSchema }, async (request, reply) => {
    const s = loadScript(request);
    if (request.params.file === s.versionedFile) return sendScript(request, reply, true);
    if (request.params.file === 'vigil.min.js') return sendScript(request, reply, false);
    throw new VigilError('not_found', `No script ${request.params.file}; the current one is /js/${s.versionedFile}`);
  });

  const env = deps.env;
  const policy = deps.browser.policy;
  const collectLimiter = limiter(env.VIGIL_JS_COLLECT_RPS, env.VIGIL_JS_COLLECT_BURST);
  const eventsLimiter = limiter(env.VIGIL_JS_EVENTS_RPS, env.VIGIL_JS_EVENTS_BURST);

  app.options('/js/collect', preflight(policy));
  app.options('/js/events', preflight(policy));

  app.post(
    '/js/collect',
    {
      schema: collectSchema,
      links: collectLinks,
      bodyLimit: JS_LIMITS.collectBodyBytes,
      onRequest: jsGuard({ keys: deps.keys, policy, rateLimiter: collectLimiter, name: 'collect' }),
    },
    async (request) => {
      try {
        return await deps.browser.collect({
          body: request.body,
          origin: header(request, 'origin') ?? null,
          userAgent: header(request, 'user-agent') ?? null,
        });
      } catch (error) {
        if (error instanceof VigilError) throw error;
        deps.log.error({ err: error }, 'handprint could not be resolved');
        throw new VigilError('unavailable', 'The handprint could not be resolved; retry', { headers: { 'Retry-After': '1' } });
      }
    },
  );

  app.post(
    '/js/events',
    { schema: eventsSchema, bodyLimit: JS_LIMITS.eventsBodyBytes, onRequest: jsGuard({ keys: deps.keys, policy, rateLimiter: eventsLimiter, name: 'events' }) },
    async (request) => {
      const keyId = request.apiKey?.id ?? (await deps.browser.pagesKeyId());
      // Proxy headers are passed on for backends' events only, as /js/events always has.
      const ctx = requestContext(request, { keyId, keyKind: 'client', forwarding: false });
      return ingestBrowserEvents(request.body, ctx, {
        keys: deps.browser.secrets.keys,
        ingestor: deps.ingestor,
        profiles: deps.browser.profiles,
        now: deps.browser.now,
        log: deps.log,
      });
    },
  );
}
