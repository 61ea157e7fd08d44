import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { supervisorCredentials, supervisors } from '@vigil/drizzle/schema';
import { KeyStore } from '../auth/key-store.js';
import { allows, supervisorRoles, type Permission } from '../auth/roles.js';
import { SupervisorStore } from '../auth/supervisor-store.js';
import type { TestVigil } from './harness.js';
import { request, type TestResponse } from './harness.js';
import { createAccount, openSession, supervisorAccounts } from './supervisors.js';

export interface AuthCaseOptions {
  method: 'GET' | 'POST';
  path: string;
  /** A body the route accepts. */
  body?: unknown;
  /** Key kinds the route accepts; the others must get 403. */
  accepts: ('write' | 'client')[];
  /** Status of an authorised, valid request. */
  okStatus?: number;
}

/**
 * The security cases every authenticated route must pass, generated from one place so no route forgets one:
 * happy path per accepted kind, missing/malformed/unknown/revoked credentials (401 with a challenge) and the
 * wrong kind (403).
 */
export function authCases(server: () => TestVigil, options: AuthCaseOptions): void {
  const send = (headers: Record<string, string>) =>
    request(server().url + options.path, {
      method: options.method,
      headers: { 'content-type': 'application/json', ...headers },
      body: options.method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
    });
  const keyOf = (kind: 'write' | 'client') => (kind === 'write' ? server().writeKey : server().clientKey);
  const label = `${options.method} ${options.path}`;

  for (const kind of options.accepts) {
    it(`${label} accepts a ${kind} key`, async () => {
      const res = await send({ authorization: `Bearer ${keyOf(kind)}` });
      expect(res.status).toBe(options.okStatus ?? 200);
    });
  }
  for (const kind of (['write', 'client'] as const).filter((k) => !options.accepts.includes(k))) {
    it(`${label} refuses a ${kind} key with 403`, async () => {
      const res = await send({ authorization: `Bearer ${keyOf(kind)}` });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('forbidden');
    });
  }
  const refusals: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['an unknown key', { authorization: 'Bearer vigil_wk_ThisKeyDoesNotExist000000000000' }],
  ];
  for (const [what, headers] of refusals) {
    it(`${label} refuses ${what} with 401 and a Bearer challenge`, async () => {
      const res = await send(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', type: '/problems/unauthorized' });
    });
  }
  it(`${label} refuses a revoked key at once`, async () => {
    const keys = new KeyStore(server().database);
    const kind = options.accepts[0]!;
    const created = await keys.create(kind, 'to revoke');
    expect((await send({ authorization: `Bearer ${created.key}` })).status).toBe(options.okStatus ?? 200);
    // Revoked through the running server's own store, whose cache now holds the key.
    await server().vigil.keys.revoke(created.id);
    const res = await send({ authorization: `Bearer ${created.key}` });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });
  it(`${label} refuses a supervisor token: supervisor credentials never reach key routes`, async () => {
    const { admin } = await supervisorAccounts(server());
    const res = await send({ authorization: `Bearer ${admin.token}` });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
}

export interface SupervisorAuthCaseOptions {
  method: 'GET' | 'POST';
  path: string;
  /** A body the route accepts; repeating the request must stay successful (idempotent moves). */
  body?: unknown;
  /** What the route needs: read (viewer+), manage_devices (supervisor+) or admin. */
  permission: Permission;
  okStatus?: number;
}

const refusedCredentials: [string, (s: TestVigil) => Record<string, string>][] = [
  ['no Authorization header', () => ({})],
  ['another scheme', () => ({ authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` })],
  ['an empty bearer', () => ({ authorization: 'Bearer ' })],
  ['an unknown token', () => ({ authorization: 'Bearer vigil_st_ThisTokenDoesNotExist0000000000' })],
  ['an unknown session', () => ({ authorization: 'Bearer vigil_ss_ThisSessionDoesNotExist000000000' })],
];

/**
 * The authorization matrix of a supervisor route, from one place: each role allowed or refused (403), write and
 * client keys refused (403), missing/unknown credentials (401 with a challenge), a revoked token and an expired
 * session refused at once (401).
 */
export function supervisorAuthCases(server: () => TestVigil, options: SupervisorAuthCaseOptions): void {
  const label = `${options.method} ${options.path}`;
  const send = (headers: Record<string, string>) =>
    request(server().url + options.path, {
      method: options.method,
      headers: { ...(options.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
      body: options.method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
    });
  matrix(server, label, options.permission, options.okStatus ?? 200, send, (res, status) => {
    expect(res.status).toBe(status);
    if (status >= 400) {
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(status === 401 ? 'unauthorized' : 'forbidden');
    }
  });
}

export interface GraphqlAuthCaseOptions {
  /** A label for the operation, e.g. `query devices`. */
  name: string;
  query: string;
  /** Fresh variables per request when a function (e.g. a new username for each createSupervisor). */
  variables?: Record<string, unknown> | (() => Record<string, unknown>);
  permission: Permission;
}

/**
 * The same matrix for a GraphQL operation: credentials are checked before GraphQL runs (401/403 problem+json);
 * a role that may not run the operation gets a GraphQL error whose extensions.code is `forbidden`.
 */
export function graphqlAuthCases(server: () => TestVigil, options: GraphqlAuthCaseOptions): void {
  const label = `GraphQL ${options.name}`;
  const send = (headers: Record<string, string>) =>
    request(`${server().url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        query: options.query,
        variables: typeof options.variables === 'function' ? options.variables() : (options.variables ?? {}),
      }),
    });
  matrix(server, label, options.permission, 200, send, (res, status) => {
    if (status === 200) {
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
    } else if (status === 403 && res.status === 200) {
      // A signed-in role without the permission: GraphQL answers the error in-band, with the REST code.
      expect(res.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    } else {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(status === 401 ? 'unauthorized' : 'forbidden');
    }
  });
}

function matrix(
  server: () => TestVigil,
  label: string,
  permission: Permission,
  okStatus: number,
  send: (headers: Record<string, string>) => Promise<TestResponse>,
  check: (res: TestResponse, status: number) => void,
): void {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  for (const role of supervisorRoles) {
    const allowed = allows(role, permission);
    it(`${label}: ${role} ${allowed ? 'is allowed' : 'is refused with 403'}`, async () => {
      const accounts = await supervisorAccounts(server());
      check(await send(bearer(accounts[role].token)), allowed ? okStatus : 403);
    });
  }
  for (const kind of ['write', 'client'] as const) {
    it(`${label}: a ${kind} key never gets in (403)`, async () => {
      const res = await send(bearer(kind === 'write' ? server().writeKey : server().clientKey));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });
  }
  for (const [what, headers] of refusedCredentials) {
    it(`${label}: ${what} is refused with 401 and a Bearer challenge`, async () => {
      const res = await send(headers(server()));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', type: '/problems/unauthorized' });
    });
  }
  const allowedRole = supervisorRoles.find((r) => allows(r, permission))!;
  it(`${label}: a revoked token fails at once`, async () => {
    const account = await createAccount(server(), allowedRole);
    check(await send(bearer(account.token)), okStatus);
    const store = new SupervisorStore(server().database);
    const [token] = (await store.tokens()).filter((t) => t.username === account.username);
    expect(await store.revoke(token!.id)).toBe(true);
    const res = await send(bearer(account.token));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });
  it(`${label}: an expired session fails at once`, async () => {
    const account = await createAccount(server(), allowedRole);
    const session = await openSession(server(), account);
    check(await send(bearer(session.token)), okStatus);
    await expireCredential(server(), session.id);
    const res = await send(bearer(session.token));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/session has expired/);
  });
  it(`${label}: an expired token fails at once`, async () => {
    const account = await createAccount(server(), allowedRole);
    check(await send(bearer(account.token)), okStatus);
    await expireCredential(server(), account.tokenId);
    const res = await send(bearer(account.token));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/token has expired/);
  });
  it(`${label}: the token and session of a disabled account fail at once`, async () => {
    const account = await createAccount(server(), allowedRole);
    const session = await openSession(server(), account);
    check(await send(bearer(account.token)), okStatus);
    await server().database.db.update(supervisors).set({ disabledAt: new Date() }).where(eq(supervisors.id, account.id));
    for (const credential of [account.token, session.token]) {
      const res = await send(bearer(credential));
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/account is disabled/);
    }
  });
}

const expireCredential = (server: TestVigil, id: string) =>
  server.database.db
    .update(supervisorCredentials)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(supervisorCredentials.id, id));
