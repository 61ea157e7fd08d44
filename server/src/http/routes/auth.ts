import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SupervisorStore } from '../../auth/supervisor-store.js';
import { VigilError } from '../../errors.js';
import { storableString } from '../../db/safe-text.js';
import type { RateLimiter } from '../rate-limit/interface.js';
import { authenticateSupervisor, requireSupervisor, type SupervisorGuardDeps } from '../supervisor-guard.js';
import { parse } from './devices.js';

export interface AuthRouteDeps extends SupervisorGuardDeps {
  supervisors: SupervisorStore;
  /** Guards login against guessing: one bucket per client IP and one per username. */
  loginLimiter: RateLimiter;
  sessionTtlMs: number;
}

export const loginBody = z
  .object({ username: storableString().min(1).max(64), password: z.string().min(1).max(1024) })
  .strict();

/**
 * | Route                 | Auth            | Body                 | Answer                                        |
 * |-----------------------|-----------------|----------------------|-----------------------------------------------|
 * | POST /api/auth/login  | none            | {username, password} | 200 {token, expires_at, supervisor}; 401; 429 |
 * | POST /api/auth/logout | session / token | —                    | 200 {logged_out}; a session ends at once      |
 * | GET  /api/auth/me     | session / token | —                    | 200 {id, username, role}                      |
 */
export function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post('/api/auth/login', async (request) => {
    const body = parse(loginBody, request.body, 'Invalid login');
    for (const subject of [`ip:${request.ip}`, `user:${body.username.toLowerCase()}`]) {
      const decision = deps.loginLimiter.take(subject);
      if (!decision.allowed) {
        throw new VigilError('rate_limited', `Too many login attempts; retry after ${decision.retryAfterSeconds} s`, {
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        });
      }
    }
    const session = await deps.supervisors.login(body.username, body.password, deps.sessionTtlMs);
    if (!session) {
      request.log.info({ username: body.username }, 'login refused');
      throw new VigilError('unauthorized', 'Wrong username or password');
    }
    return {
      token: session.token,
      session_id: session.id,
      expires_at: session.expiresAt!.toISOString(),
      supervisor: { id: session.supervisor.id, username: session.supervisor.username, role: session.supervisor.role },
    };
  });

  app.post('/api/auth/logout', async (request) => {
    const principal = await authenticateSupervisor(deps, request);
    // Logout ends console sessions; API tokens are revoked deliberately (tokens revoke), never by accident.
    if (principal.credential.kind === 'session') await deps.supervisors.revoke(principal.credential.id, 'session');
    return { logged_out: principal.credential.kind === 'session' };
  });

  app.get('/api/auth/me', { preHandler: requireSupervisor(deps, 'read') }, async (request) => {
    const s = request.principal!.supervisor;
    return { id: s.id, username: s.username, role: s.role, credential: request.principal!.credential };
  });
}
