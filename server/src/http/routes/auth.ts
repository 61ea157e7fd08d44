import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SupervisorStore } from '../../auth/supervisor-store.js';
import { VigilError } from '../../errors.js';
import { storableString } from '../../db/safe-text.js';
import { decideLogin, slowDown, type LoginLimiters } from '../rate-limit/login.js';
import { authenticateSupervisor, requireSupervisor, type SupervisorGuardDeps } from '../../auth/supervisor-guard.js';
import { component, guarded, json, problems, securedBy, validatedAs, withBody } from '../route-schemas.js';
import { supervisorRoles } from '../../auth/roles.js';

export interface AuthRouteDeps extends SupervisorGuardDeps {
  supervisors: SupervisorStore;
  /** Guards login against guessing: refusals per client IP and per IP and username; per username, a delay. */
  loginLimiters: LoginLimiters;
  sessionTtlMs: number;
}

export const loginBody = z.object({ username: storableString().min(1).max(64), password: z.string().min(1).max(1024) }).strict();

/**
 * | Route                 | Auth            | Body                 | Answer                                        |
 * |-----------------------|-----------------|----------------------|-----------------------------------------------|
 * | POST /api/auth/login  | none            | {username, password} | 200 {token, expires_at, supervisor}; 401; 403; 429 |
 * | POST /api/auth/logout | session / token | —                    | 200 {logged_out}; a session ends at once      |
 * | GET  /api/auth/me     | session / token | —                    | 200 {id, username, role}                      |
 */
const supervisor = z.object({ id: z.string(), username: z.string(), role: z.enum(supervisorRoles) });
const sessionSchema = component('Session', z.object({ token: z.string(), session_id: z.string(), expires_at: z.string(), supervisor }));
const meSchema = component('Me', supervisor.extend({ credential: z.object({ id: z.string(), kind: z.enum(['token', 'session']) }) }));

const login = {
  operationId: 'login',
  summary: 'Sign in: a console session token, expiring after VIGIL_SESSION_TTL_HOURS',
  body: validatedAs('Invalid login', component('Login', loginBody)),
  response: {
    200: json('Session', sessionSchema),
    ...problems([...withBody, 401, 403, 429, 503], {
      401: 'Wrong username or password.',
      403: 'The account is disabled (said only after the right password).',
      429: 'Too many attempts from this client address, or from it for this username; see Retry-After.',
    }),
  },
};

const logout = {
  operationId: 'logout',
  summary: 'End the session at once (an API token stays valid: revoke it with `vigil tokens revoke`)',
  security: securedBy('supervisorToken'),
  response: { 200: json('Done', z.object({ logged_out: z.boolean() })), ...problems(guarded) },
};

const me = {
  operationId: 'me',
  summary: 'The signed-in supervisor',
  security: securedBy('supervisorToken'),
  response: { 200: json('Supervisor', meSchema), ...problems(guarded) },
};

export function authRoutes(fastify: FastifyInstance, deps: AuthRouteDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/api/auth/login', { schema: login }, async (request) => {
    const body = request.body;
    const decision = decideLogin(deps.loginLimiters, request.ip, body.username);
    if (!decision.allowed) {
      throw new VigilError('rate_limited', `Too many login attempts; retry after ${decision.retryAfterSeconds} s`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
    if (decision.delayMs > 0) request.log.info({ username: body.username }, 'login slowed: many attempts for this username');
    await slowDown(decision.delayMs);
    const session = await deps.supervisors.login(body.username, body.password, deps.sessionTtlMs);
    if (!session.ok) {
      request.log.info({ username: body.username, reason: session.reason }, 'login refused');
      if (session.reason === 'disabled') throw new VigilError('forbidden', 'This account is disabled; ask an admin to enable it');
      throw new VigilError('unauthorized', 'Wrong username or password');
    }
    return {
      token: session.token,
      session_id: session.id,
      expires_at: session.expiresAt.toISOString(),
      supervisor: { id: session.supervisor.id, username: session.supervisor.username, role: session.supervisor.role },
    };
  });

  app.post('/api/auth/logout', { schema: logout }, async (request) => {
    const principal = await authenticateSupervisor(deps, request);
    // Logout ends console sessions; API tokens are revoked deliberately (tokens revoke), never by accident.
    if (principal.credential.kind === 'session') await deps.supervisors.revoke(principal.credential.id, 'session');
    return { logged_out: principal.credential.kind === 'session' };
  });

  app.get('/api/auth/me', { schema: me, preValidation: requireSupervisor(deps, 'read') }, async (request) => {
    const s = request.principal!.supervisor;
    return { id: s.id, username: s.username, role: s.role, credential: request.principal!.credential };
  });
}
