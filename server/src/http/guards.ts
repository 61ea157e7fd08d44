import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { parseBearer } from '../auth/bearer.js';
import type { ApiKey, KeyKind, KeyStore } from '../auth/key-store.js';
import { hashForLog, sha256Hex } from '../auth/secrets.js';
import { VigilError } from '../errors.js';
import type { RateLimiter } from './rate-limit/interface.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

export interface GuardDeps {
  keys: KeyStore;
  rateLimiter: RateLimiter;
}

const challenge = (error?: string) => ({
  'WWW-Authenticate': error ? `Bearer realm="vigil", error="${error}"` : 'Bearer realm="vigil"',
});

/**
 * Authenticates an API key of one of `kinds` and applies its rate limit. Outcomes of the key check are data;
 * only here, at the edge, do they become 401/403/429.
 */
export function requireKey(deps: GuardDeps, kinds: readonly KeyKind[]): preHandlerAsyncHookHandler {
  return async function guard(request: FastifyRequest, _reply: FastifyReply) {
    const presented = parseBearer(request.headers.authorization);
    if (!presented) {
      throw new VigilError('unauthorized', 'Send the key as Authorization: Bearer <key>', { headers: challenge() });
    }
    const check = await deps.keys.check(presented);
    if (!check.ok) {
      request.log.info({ key: hashForLog(sha256Hex(presented)), reason: check.reason }, 'key refused');
      throw new VigilError('unauthorized', check.reason === 'revoked' ? 'This key has been revoked' : 'Unknown key', {
        headers: challenge('invalid_token'),
      });
    }
    if (!kinds.includes(check.key.kind)) {
      throw new VigilError('forbidden', `A ${check.key.kind} key may not call this route; it needs a ${kinds.join(' or ')} key`);
    }
    const decision = deps.rateLimiter.take(check.key.id);
    if (!decision.allowed) {
      throw new VigilError('rate_limited', `Rate limit exceeded for key ${check.key.id}; retry after ${decision.retryAfterSeconds} s`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
    deps.keys.markUsed(check.key);
    request.apiKey = check.key;
  };
}
