import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { classifyJsAuthorization, corsHeaders, isOriginAllowed, type CorsPolicy } from '../../js/cors.js';
import type { KeyStore } from '../../auth/key-store.js';
import { VigilError } from '../../errors.js';
import { header } from '../../ingest/accept.js';
import type { RateLimiter } from '../rate-limit/interface.js';

export interface JsGuardDeps {
  keys: KeyStore;
  policy: CorsPolicy;
  /** Per client IP: pages have no key to limit by. */
  rateLimiter: RateLimiter;
  /** Rate-limit subject prefix, so each /js endpoint has its own buckets. */
  name: string;
}

/**
 * Runs before the body is read (onRequest), so a refused caller costs no parsing. CORS headers go on first so
 * that the page can read every later answer, errors included (413 makes the library halve its batch, 429 makes it
 * wait). A browser never holds a write key: one is refused outright. A client key is optional; with a valid one
 * the Origin check is waived (server-side tests and native webviews have no allowed origin).
 */
export function jsGuard(deps: JsGuardDeps): onRequestAsyncHookHandler {
  return async function guard(request: FastifyRequest, reply: FastifyReply) {
    const origin = header(request, 'origin');
    const cors = corsHeaders(origin, deps.policy);
    reply.headers(cors ?? { vary: 'Origin' });

    const credential = classifyJsAuthorization(header(request, 'authorization'));
    if (credential.kind === 'write_key') {
      throw new VigilError('write_key_not_allowed', 'A write key was sent from a browser: revoke it now, and use a client key (or none) in pages');
    }
    if (credential.kind === 'malformed') {
      throw new VigilError('unauthorized', 'Authorization on /js must be absent or Bearer vigil_ck_… (a client key)', {
        headers: { 'WWW-Authenticate': 'Bearer realm="vigil", error="invalid_token"' },
      });
    }
    if (credential.kind === 'client_key') {
      const check = await deps.keys.check(credential.key);
      if (!check.ok) {
        throw new VigilError(
          'unauthorized',
          check.reason === 'unknown' ? 'Unknown client key' : `This client key ${check.reason === 'revoked' ? 'has been revoked' : 'has expired'}`,
          {
            headers: { 'WWW-Authenticate': 'Bearer realm="vigil", error="invalid_token"' },
          },
        );
      }
      if (check.key.kind !== 'client') throw new VigilError('write_key_not_allowed', 'Only client keys may be used from a browser');
      deps.keys.markUsed(check.key);
      request.apiKey = check.key;
    } else if (!isOriginAllowed(origin, deps.policy)) {
      throw new VigilError('origin_not_allowed', `Origin ${origin ?? '(none)'} is not in VIGIL_JS_ALLOWED_ORIGINS; add it there, or send a client key`);
    }

    const decision = deps.rateLimiter.take(`${deps.name} ${request.ip}`);
    if (!decision.allowed) {
      throw new VigilError('rate_limited', `Too many ${deps.name} requests from ${request.ip}; retry after ${decision.retryAfterSeconds} s`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
  };
}

/** OPTIONS: the preflight answer for an allowed origin; anything else gets no CORS headers, so the browser stops. */
export function preflight(policy: CorsPolicy) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = header(request, 'origin');
    const headers = corsHeaders(origin, policy, true);
    if (!headers) {
      reply.header('vary', 'Origin');
      throw new VigilError('origin_not_allowed', `Origin ${origin ?? '(none)'} is not in VIGIL_JS_ALLOWED_ORIGINS`);
    }
    return reply.status(204).headers(headers).send();
  };
}
