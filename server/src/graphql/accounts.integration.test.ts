import { and, eq, isNull, ne } from 'drizzle-orm';
import { supervisorCredentials, supervisors } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { graphqlAuthCases } from '../test-support/auth-cases.js';
import { surfaceDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { createAccount, graphql, openSession, supervisorAccounts, supervisorRequest, type TestAccount } from '../test-support/supervisors.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(surfaceDrivers())('GraphQL account administration on %s', (driver) => {
  let server: TestVigil;
  let accounts: Record<'admin' | 'supervisor' | 'viewer', TestAccount>;
  let spare: TestAccount;
  let spareSessionId: string;
  /** Accounts for the deleteSupervisor matrix: each allowed request deletes one. */
  const doomed: string[] = [];

  beforeAll(async () => {
    server = await startTestVigil(driver);
    accounts = await supervisorAccounts(server);
    spare = await createAccount(server, 'viewer');
    spareSessionId = (await openSession(server, spare)).id;
    // Inserted directly (no scrypt work): these accounts only exist to be deleted.
    for (let i = 0; i < 24; i++) {
      const username = `doomed-${process.pid}-${i}`;
      await server.database.db.insert(supervisors).values({ id: newId('sup'), username, role: 'viewer', passwordHash: 'none' });
      doomed.push(username);
    }
  });
  afterAll(async () => server?.close());

  const admin = (query: string, variables: Record<string, unknown> = {}) => graphql(server, accounts.admin.token, query, variables);
  const login = (username: string, password: string) => server.post('/api/auth/login', { username, password }, { key: null });
  const me = async (token: string) => supervisorRequest(server, 'GET', '/api/auth/me', token);
  const errorCode = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code;

  // The authorization matrix of every new field: admin only, keys and bad credentials refused before GraphQL.
  const u = () => ({ u: spare.username });
  graphqlAuthCases(() => server, {
    name: 'mutation disableSupervisor',
    query: 'mutation ($u: String!) { disableSupervisor(username: $u) { disabledAt } }',
    variables: u,
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation enableSupervisor',
    query: 'mutation ($u: String!) { enableSupervisor(username: $u) { disabledAt } }',
    variables: u,
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation deleteSupervisor',
    query: 'mutation ($u: String!) { deleteSupervisor(username: $u) { username } }',
    variables: () => ({ u: doomed.shift() }),
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation resetSupervisorPassword',
    query: 'mutation ($u: String!) { resetSupervisorPassword(username: $u) { password sessionsRevoked } }',
    variables: u,
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation setSupervisorRole',
    query: 'mutation ($u: String!) { setSupervisorRole(username: $u, role: VIEWER) { role } }',
    variables: u,
    permission: 'admin',
  });
  graphqlAuthCases(() => server, { name: 'query sessions', query: '{ sessions { id expiresAt } }', permission: 'admin' });
  graphqlAuthCases(() => server, {
    name: 'query sessions(username)',
    query: 'query ($u: String) { sessions(username: $u) { id } }',
    variables: u,
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'query tokens(username)',
    query: 'query ($u: String) { tokens(username: $u) { id expiresAt } }',
    variables: u,
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation revokeSession',
    query: 'mutation ($id: ID!) { revokeSession(id: $id) { revokedAt } }',
    variables: () => ({ id: spareSessionId }),
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'query accountAudit',
    query: '{ accountAudit(first: 5) { action username actor { kind name } at } }',
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation createToken(expiresInDays)',
    query: 'mutation ($u: String!) { createToken(username: $u, name: "expiring", expiresInDays: 7) { expiresAt } }',
    variables: u,
    permission: 'admin',
  });

  it('disables an account at once: no sign-in, sessions end, tokens refused; enabling brings back only unrevoked tokens', async () => {
    const target = await createAccount(server, 'supervisor');
    const session = await openSession(server, target);
    const second = await graphql(server, accounts.admin.token, 'mutation ($u: String!) { createToken(username: $u, name: "second") { id token } }', {
      u: target.username,
    });
    const revokedToken = second.body.data.createToken;
    await admin('mutation ($id: ID!) { revokeToken(id: $id) { id } }', { id: revokedToken.id });

    const disabled = await admin('mutation ($u: String!) { disableSupervisor(username: $u) { username disabledAt } }', { u: target.username });
    expect(disabled.body.data.disableSupervisor).toMatchObject({ username: target.username, disabledAt: expect.any(String) });
    for (const credential of [target.token, session.token]) {
      const res = await me(credential);
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/account is disabled/);
    }
    const signIn = await login(target.username, target.password);
    expect(signIn.status).toBe(403);
    expect(signIn.body.detail).toMatch(/disabled/);
    const listed = await admin('{ supervisors { username disabledAt } }');
    expect(listed.body.data.supervisors.find((s: { username: string }) => s.username === target.username).disabledAt).not.toBeNull();

    const enabled = await admin('mutation ($u: String!) { enableSupervisor(username: $u) { disabledAt } }', { u: target.username });
    expect(enabled.body.data.enableSupervisor.disabledAt).toBeNull();
    expect((await me(target.token)).status).toBe(200);
    // Ended sessions and revoked tokens stay so: enabling is no undo for them.
    expect((await me(session.token)).body.detail).toMatch(/session has been revoked/);
    expect((await me(revokedToken.token)).body.detail).toMatch(/token has been revoked/);
    expect((await login(target.username, target.password)).status).toBe(200);

    const audit = await admin('query ($u: String) { accountAudit(username: $u) { action username supervisorId actor { kind id name } detail } }', {
      u: target.username,
    });
    expect(audit.body.data.accountAudit.map((r: { action: string }) => r.action)).toEqual(['ENABLE', 'DISABLE', 'REVOKE_TOKEN', 'CREATE_TOKEN']);
    expect(audit.body.data.accountAudit[1]).toEqual({
      action: 'DISABLE',
      username: target.username,
      supervisorId: target.id,
      actor: { kind: 'supervisor', id: accounts.admin.id, name: accounts.admin.username },
      detail: { sessions_revoked: 1 },
    });
  });

  it('deletes an account with its credentials; the audit keeps who it was', async () => {
    const target = await createAccount(server, 'viewer');
    const session = await openSession(server, target);
    const deleted = await admin('mutation ($u: String!) { deleteSupervisor(username: $u) { id username role } }', { u: target.username });
    expect(deleted.body.data.deleteSupervisor).toEqual({ id: target.id, username: target.username, role: 'VIEWER' });
    for (const credential of [target.token, session.token]) expect((await me(credential)).body.detail).toBe('Unknown token');
    expect((await login(target.username, target.password)).status).toBe(401);
    const rows = await server.database.db.select().from(supervisorCredentials).where(eq(supervisorCredentials.supervisorId, target.id));
    expect(rows).toEqual([]);
    const audit = await admin('query ($u: String) { accountAudit(username: $u) { action username supervisorId detail } }', { u: target.username });
    expect(audit.body.data.accountAudit[0]).toEqual({
      action: 'DELETE',
      username: target.username,
      supervisorId: target.id,
      detail: { role: 'viewer', credentials_deleted: 2 },
    });
    const again = await admin('mutation ($u: String!) { deleteSupervisor(username: $u) { id } }', { u: target.username });
    expect(errorCode(again)).toBe('not_found');
  });

  it('resets a password: a new one shown once, the old one refused, every session ended, tokens kept', async () => {
    const target = await createAccount(server, 'viewer');
    const sessions = [await openSession(server, target), await openSession(server, target)];
    const reset = await admin('mutation ($u: String!) { resetSupervisorPassword(username: $u) { password sessionsRevoked supervisor { username } } }', {
      u: target.username,
    });
    const { password, sessionsRevoked } = reset.body.data.resetSupervisorPassword;
    expect(password).toMatch(/^\S{20,}$/);
    expect(sessionsRevoked).toBe(2);
    for (const s of sessions) expect((await me(s.token)).status).toBe(401);
    expect((await me(target.token)).status).toBe(200);
    expect((await login(target.username, target.password)).status).toBe(401);
    expect((await login(target.username, password)).status).toBe(200);
    // Stored hashed: the password is nowhere in the database.
    const [row] = await server.database.db.select().from(supervisors).where(eq(supervisors.id, target.id));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain(password);
    const audit = await admin('query ($u: String) { accountAudit(username: $u, first: 1) { action detail } }', { u: target.username });
    expect(audit.body.data.accountAudit).toEqual([{ action: 'RESET_PASSWORD', detail: { sessions_revoked: 2 } }]);
    expect(JSON.stringify(audit.body)).not.toContain(password);
  });

  it('changes a role, which applies to the next request', async () => {
    const target = await createAccount(server, 'viewer');
    const changed = await admin('mutation ($u: String!) { setSupervisorRole(username: $u, role: SUPERVISOR) { role } }', { u: target.username });
    expect(changed.body.data.setSupervisorRole.role).toBe('SUPERVISOR');
    expect((await me(target.token)).body.role).toBe('supervisor');
    const audit = await admin('query ($u: String) { accountAudit(username: $u, first: 1) { action detail } }', { u: target.username });
    expect(audit.body.data.accountAudit).toEqual([{ action: 'SET_ROLE', detail: { from: 'viewer', to: 'supervisor' } }]);
  });

  it("lists an account's sessions and tokens with created, last use and expiry, and ends one session", async () => {
    const target = await createAccount(server, 'viewer');
    const [first, second] = [await openSession(server, target), await openSession(server, target)];
    await me(first.token);
    const listed = await admin('query ($u: String) { sessions(username: $u) { id username createdAt expiresAt lastUsedAt revokedAt } }', {
      u: target.username,
    });
    const sessions = listed.body.data.sessions;
    expect(sessions.map((s: { id: string }) => s.id).sort()).toEqual([first.id, second.id].sort());
    expect(sessions.find((s: { id: string }) => s.id === first.id)).toMatchObject({
      username: target.username,
      lastUsedAt: expect.any(String),
      revokedAt: null,
    });
    expect(Date.parse(sessions[0].expiresAt)).toBeGreaterThan(Date.now());

    const revoked = await admin('mutation ($id: ID!) { revokeSession(id: $id) { id revokedAt } }', { id: first.id });
    expect(revoked.body.data.revokeSession.revokedAt).not.toBeNull();
    expect((await me(first.token)).status).toBe(401);
    expect((await me(second.token)).status).toBe(200);
    // Only the sessions that still work, when asked: expired and ended ones are left out.
    const third = await openSession(server, target);
    await server.database.db
      .update(supervisorCredentials)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(supervisorCredentials.id, third.id));
    const active = await admin('query ($u: String) { sessions(username: $u, active: true) { id } }', { u: target.username });
    expect(active.body.data.sessions).toEqual([{ id: second.id }]);
    const all = await admin('query ($u: String) { sessions(username: $u) { id } }', { u: target.username });
    expect(all.body.data.sessions).toHaveLength(3);

    const tokens = await admin('query ($u: String) { tokens(username: $u) { id username createdAt expiresAt lastUsedAt revokedAt } }', { u: target.username });
    expect(tokens.body.data.tokens).toEqual([
      { id: target.tokenId, username: target.username, createdAt: expect.any(String), expiresAt: null, lastUsedAt: null, revokedAt: null },
    ]);
    const audit = await admin('query ($u: String) { accountAudit(username: $u, first: 1) { action detail } }', { u: target.username });
    expect(audit.body.data.accountAudit).toEqual([{ action: 'REVOKE_SESSION', detail: { session_id: first.id, name: 'console' } }]);
  });

  it('creates tokens that expire: the default of 90 days, days, a time, or never; an expired token is refused', async () => {
    const create = (args: string) =>
      admin(`mutation ($u: String!) { createToken(username: $u, name: "t" ${args}) { id token expiresAt } }`, { u: spare.username });
    const days = (res: { body: { data: { createToken: { expiresAt: string } } } }) => (Date.parse(res.body.data.createToken.expiresAt) - Date.now()) / DAY_MS;
    expect(days(await create(''))).toBeCloseTo(90, 1);
    expect(days(await create(', expiresInDays: 7'))).toBeCloseTo(7, 1);
    expect((await create(', expiresAt: "2099-01-01T00:00:00.000Z"')).body.data.createToken.expiresAt).toBe('2099-01-01T00:00:00.000Z');
    const never = await create(', expiresInDays: 0');
    expect(never.body.data.createToken.expiresAt).toBeNull();

    const soon = (await create(', expiresInDays: 1')).body.data.createToken;
    expect((await me(soon.token)).status).toBe(200);
    await server.database.db
      .update(supervisorCredentials)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(supervisorCredentials.id, soon.id));
    const expired = await me(soon.token);
    expect(expired.status).toBe(401);
    expect(expired.body.detail).toBe('This token has expired; ask an admin for a new one');

    const audit = await admin('query ($u: String) { accountAudit(username: $u, first: 1) { action actor { name } detail } }', { u: spare.username });
    expect(audit.body.data.accountAudit[0]).toMatchObject({
      action: 'CREATE_TOKEN',
      actor: { name: accounts.admin.username },
      detail: { token_id: soon.id, name: 't' },
    });
  });

  it('answers unknown accounts with not_found and bad arguments with validation_failed', async () => {
    for (const mutation of ['disableSupervisor', 'enableSupervisor', 'deleteSupervisor', 'resetSupervisorPassword']) {
      expect(errorCode(await admin(`mutation { ${mutation}(username: "ghost") { __typename } }`))).toBe('not_found');
    }
    expect(errorCode(await admin('mutation { setSupervisorRole(username: "ghost", role: VIEWER) { id } }'))).toBe('not_found');
    expect(errorCode(await admin('{ sessions(username: "ghost") { id } }'))).toBe('not_found');
    expect(errorCode(await admin('{ tokens(username: "ghost") { id } }'))).toBe('not_found');
    expect(errorCode(await admin('mutation { revokeSession(id: "ses_nope") { id } }'))).toBe('not_found');
    // A token id is not a session id.
    expect(errorCode(await admin('mutation ($id: ID!) { revokeSession(id: $id) { id } }', { id: spare.tokenId }))).toBe('not_found');
    expect(errorCode(await admin('mutation { setSupervisorRole(username: "x", role: ROOT) { id } }'))).toBe('validation_failed');
    expect(errorCode(await admin('{ accountAudit(first: 0) { id } }'))).toBe('validation_failed');
    expect(errorCode(await admin('{ accountAudit(first: 501) { id } }'))).toBe('validation_failed');
    const u = { u: spare.username };
    for (const args of [
      'expiresInDays: -1',
      'expiresInDays: 36501',
      'expiresAt: "2001-01-01T00:00:00Z"',
      'expiresInDays: 3, expiresAt: "2099-01-01T00:00:00Z"',
    ]) {
      const res = await admin(`mutation ($u: String!) { createToken(username: $u, ${args}) { id } }`, u);
      expect(errorCode(res)).toBe('validation_failed');
    }
  });

  it('never lets the last enabled admin be disabled, deleted or demoted (409), so nobody locks everyone out', async () => {
    // Leave one enabled admin: the one this suite signs in with.
    const others = await server.database.db
      .update(supervisors)
      .set({ disabledAt: new Date() })
      .where(and(eq(supervisors.role, 'admin'), isNull(supervisors.disabledAt), ne(supervisors.id, accounts.admin.id)))
      .returning({ id: supervisors.id });
    try {
      const self = { u: accounts.admin.username };
      for (const mutation of [
        'mutation ($u: String!) { disableSupervisor(username: $u) { id } }',
        'mutation ($u: String!) { deleteSupervisor(username: $u) { id } }',
        'mutation ($u: String!) { setSupervisorRole(username: $u, role: VIEWER) { id } }',
      ]) {
        const res = await admin(mutation, self);
        expect(errorCode(res)).toBe('conflict');
        expect(res.body.errors[0].message).toMatch(/last enabled admin/);
        expect(res.body.errors[0].extensions.status).toBe(409);
      }
      expect((await me(accounts.admin.token)).body.role).toBe('admin');
      // With a second admin, the first may step down.
      const deputy = await createAccount(server, 'admin');
      const stepDown = await admin('mutation ($u: String!) { setSupervisorRole(username: $u, role: SUPERVISOR) { role } }', self);
      expect(stepDown.body.data.setSupervisorRole.role).toBe('SUPERVISOR');
      const back = await graphql(server, deputy.token, 'mutation ($u: String!) { setSupervisorRole(username: $u, role: ADMIN) { role } }', self);
      expect(back.body.data.setSupervisorRole.role).toBe('ADMIN');
    } finally {
      for (const { id } of others) await server.database.db.update(supervisors).set({ disabledAt: null }).where(eq(supervisors.id, id));
    }
  });
});
