import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { parseBearer } from './bearer.js';
import type { KeyStore } from './key-store.js';
import { allows, type Permission } from './roles.js';
import { secretPrefixes } from './secrets.js';
import type { CredentialCheck, Principal, SupervisorStore } from './supervisor-store.js';
import { VigilError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The one call the guard makes on the HTTP layer's rate limiter; declared here so auth does not import it. */
interface CredentialRateLimiter {
  take(subject: string): { allowed: boolean; retryAfterSeconds: number };
}

export interface SupervisorGuardDeps {
  keys: KeyStore;
  supervisors: SupervisorStore;
  rateLimiter: CredentialRateLimiter;
}

const challenge = (error?: string) => ({
  'WWW-Authenticate': error ? `Bearer realm="vigil", error="${error}"` : 'Bearer realm="vigil"',
});

function refusedBecause(check: Exclude<CredentialCheck, { ok: true }>): string {
  if (check.reason === 'unknown') return 'Unknown token';
  if (check.reason === 'disabled') return `This account is disabled; its ${check.kind}s are refused until an admin enables it`;
  if (check.reason === 'revoked') return `This ${check.kind} has been revoked`;
  return check.kind === 'session' ? 'This session has expired; log in again' : 'This token has expired; ask an admin for a new one';
}

/**
 * Authenticates a supervisor API token or console session. Write and client keys are recognised and refused
 * with 403: they belong to devices and backends, never to the supervisor API or GraphQL.
 */
export async function authenticateSupervisor(deps: SupervisorGuardDeps, request: FastifyRequest): Promise<Principal> {
  return authenticateBearer(deps, request.headers.authorization);
}

/** The same check of an `Authorization` value that arrived another way (graphql-ws connectionParams). */
export async function authenticateBearer(deps: SupervisorGuardDeps, authorization: string | undefined): Promise<Principal> {
  const presented = parseBearer(authorization);
  if (!presented) {
    throw new VigilError('unauthorized', 'Send a supervisor token or session as Authorization: Bearer <token>', { headers: challenge() });
  }
  if (presented.startsWith(secretPrefixes.write) || presented.startsWith(secretPrefixes.client)) {
    const key = await deps.keys.check(presented);
    if (key.ok) throw new VigilError('forbidden', `A ${key.key.kind} key may not call the supervisor API; use a supervisor token`);
    throw new VigilError('unauthorized', 'Unknown token', { headers: challenge('invalid_token') });
  }
  const check = await deps.supervisors.authenticate(presented);
  if (!check.ok) throw new VigilError('unauthorized', refusedBecause(check), { headers: challenge('invalid_token') });
  const decision = deps.rateLimiter.take(check.principal.credential.id);
  if (!decision.allowed) {
    throw new VigilError('rate_limited', `Rate limit exceeded; retry after ${decision.retryAfterSeconds} s`, {
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
  return check.principal;
}

export function requirePermission(principal: Principal, permission: Permission): void {
  if (!allows(principal.supervisor.role, permission)) {
    const needed = permission === 'admin' ? 'an admin' : permission === 'manage_devices' ? 'a supervisor or admin' : 'a signed-in';
    throw new VigilError('forbidden', `Role ${principal.supervisor.role} may not do this; it needs ${needed} account`);
  }
}

/** preHandler for /api routes: authenticates, checks the role and leaves the principal on the request. */
export function requireSupervisor(deps: SupervisorGuardDeps, permission: Permission): preHandlerAsyncHookHandler {
  return async function guard(request) {
    const principal = await authenticateSupervisor(deps, request);
    requirePermission(principal, permission);
    request.principal = principal;
  };
}
