import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { parseApiKeyHeader, parseBearer } from '../auth/bearer.js';
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

/** Why a key is refused; a revoked and an expired key get the same answer (401 `unauthorized`) but for this text. */
export const keyRefusal = {
  unknown: 'Unknown key',
  revoked: 'This key has been revoked',
  expired: 'This key has expired (or its rotation overlap has ended); use its replacement or create a new one',
} as const;

export interface RequireKeyOptions {
  /** Also read the key from `X-API-Key` (Honeypot SDK compatibility; POST /events only). Authorization wins. */
  apiKeyHeader?: boolean;
}

/**
 * Authenticates an API key of one of `kinds` and applies its rate limit. Outcomes of the key check are data;
 * only here, at the edge, do they become 401/403/429.
 */
export function requireKey(deps: GuardDeps, kinds: readonly KeyKind[], options: RequireKeyOptions = {}): preHandlerAsyncHookHandler {
  return async function guard(request: FastifyRequest, _reply: FastifyReply) {
    const presented = parseBearer(request.headers.authorization) ?? (options.apiKeyHeader ? parseApiKeyHeader(request.headers['x-api-key']) : undefined);
    if (!presented) {
      const how = options.apiKeyHeader ? 'Authorization: Bearer <key> (or X-API-Key: <key>)' : 'Authorization: Bearer <key>';
      throw new VigilError('unauthorized', `Send the key as ${how}`, { headers: challenge() });
    }
    const check = await deps.keys.check(presented);
    if (!check.ok) {
      request.log.info({ key: hashForLog(sha256Hex(presented)), reason: check.reason }, 'key refused');
      throw new VigilError('unauthorized', keyRefusal[check.reason], {
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
