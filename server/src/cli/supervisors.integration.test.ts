import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupervisorStore } from '../auth/supervisor-store.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { assertBuilt, runCli, startServe } from '../test-support/cli.js';
import { createTestDatabase, surfaceDrivers, testDrivers, type TestDatabase } from '../test-support/databases.js';

beforeAll(() => assertBuilt());

const api = (url: string, path: string, token: string, init: RequestInit = {}) =>
  fetch(url + path, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe.each(surfaceDrivers())('vigil supervisors and tokens on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => db?.drop());

  it('creates supervisors with a generated or stdin password, and tokens that work until revoked', async () => {
    const created = await runCli(['supervisors', 'create', '--username', 'maria', '--role', 'supervisor', '--json'], db.env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const account = JSON.parse(created.stdout);
    expect(account).toEqual({ username: 'maria', role: 'supervisor', password: expect.stringMatching(/^.{20,}$/) });

    const chosen = await runCli(
      ['supervisors', 'create', '--username', 'vic', '--role', 'viewer', '--password-stdin', '--json'],
      db.env,
      'a long chosen password\n',
    );
    expect(JSON.parse(chosen.stdout)).toEqual({ username: 'vic', role: 'viewer', password: null });

    const token = JSON.parse((await runCli(['tokens', 'create', '--username', 'maria', '--json'], db.env)).stdout);
    expect(Object.keys(token).sort()).toEqual(['expires_at', 'id', 'token']);
    // Without an expiry, the default: VIGIL_API_TOKEN_DEFAULT_TTL_DAYS, 90 days.
    expect((Date.parse(token.expires_at) - Date.now()) / 86_400_000).toBeCloseTo(90, 1);
    expect(token.id).toMatch(/^tok_/);
    expect(token.token).toMatch(/^vigil_st_[0-9A-Za-z]{32}$/);

    const server = await startServe(db.env);
    try {
      expect((await api(server.url, '/api/devices', token.token)).status).toBe(200);
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'vic', password: 'a long chosen password' }),
      });
      expect(login.status).toBe(200);
      const first = server.stdout();
      // Supervisors already existed, so no admin was bootstrapped on this database.
      expect(first).not.toMatch(/username: admin/);
    } finally {
      await server.stop();
    }
    expect((await runCli(['tokens', 'revoke', token.id], db.env)).code).toBe(0);
    const again = await startServe(db.env);
    try {
      expect((await api(again.url, '/api/devices', token.token)).status).toBe(401);
    } finally {
      await again.stop();
    }
  }, 300_000);

  it('explains bad usage with exit code 2', async () => {
    expect((await runCli(['supervisors', 'create', '--username', 'x', '--role', 'root'], db.env)).code).toBe(2);
    expect((await runCli(['supervisors', 'create', '--role', 'viewer'], db.env)).code).toBe(2);
    const duplicate = await runCli(['supervisors', 'create', '--username', 'maria', '--role', 'viewer'], db.env);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/already exists/);
    const short = await runCli(['supervisors', 'create', '--username', 'shorty', '--role', 'viewer', '--password-stdin'], db.env, 'short');
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/12 characters/);
    expect((await runCli(['tokens', 'create', '--username', 'ghost'], db.env)).code).toBe(2);
    expect((await runCli(['tokens', 'revoke', 'tok_nope'], db.env)).code).toBe(2);
  }, 300_000);
});

describe.each(surfaceDrivers())('vigil supervisors account administration on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => db?.drop());

  const cli = async (...args: string[]) => {
    const result = await runCli(args, db.env);
    if (result.code !== 0) throw new Error(`vigil ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
  };
  const json = async (...args: string[]) => JSON.parse(await cli(...args, '--json'));
  const refused = async (pattern: RegExp, ...args: string[]) => {
    const result = await runCli(args, db.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
  };
  /** A console session, opened as POST /api/auth/login does (the CLI has no sign-in). */
  const openSession = async (username: string, password: string) => {
    const database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...db.env }).env, { migrate: true, purpose: 'test' });
    try {
      const session = await new SupervisorStore(database).login(username, password, 3600_000);
      if (!session.ok) throw new Error(session.reason);
      return session.id;
    } finally {
      await database.close();
    }
  };

  it('rotates a token: the old one keeps working through the overlap, is listed as rotating, and the rotation is audited', async () => {
    await json('supervisors', 'create', '--username', 'rotor', '--role', 'viewer');
    const token = await json('tokens', 'create', '--username', 'rotor', '--name', 'ci', '--expires-in-days', '10');
    const rotated = await json('tokens', 'rotate', token.id, '--overlap-hours', '1');
    expect(rotated).toMatchObject({ token: expect.stringMatching(/^vigil_st_/), previous: { id: token.id } });
    expect((Date.parse(rotated.previous.expires_at) - Date.now()) / 3_600_000).toBeCloseTo(1, 1);
    expect((Date.parse(rotated.expires_at) - Date.now()) / 86_400_000).toBeCloseTo(10, 1);
    const tokens = await json('tokens', 'list', '--username', 'rotor');
    expect(tokens.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([
      [rotated.id, 'active'],
      [token.id, 'rotating'],
    ]);
    await refused(/already been rotated/, 'tokens', 'rotate', token.id);
    expect((await json('supervisors', 'audit', '--username', 'rotor')).map((e: { action: string }) => e.action)).toContain('rotate_token');
    // The suite shares one database: the next test lists every account.
    await cli('supervisors', 'delete', '--username', 'rotor');
  }, 300_000);

  it('disables, enables, resets, re-roles and deletes accounts, lists and ends sessions and tokens, all audited', async () => {
    await json('supervisors', 'create', '--username', 'root', '--role', 'admin');
    // The only admin cannot be taken away, from the CLI either.
    await refused(/last enabled admin/, 'supervisors', 'disable', '--username', 'root');
    await refused(/last enabled admin/, 'supervisors', 'delete', '--username', 'root');
    await refused(/last enabled admin/, 'supervisors', 'set-role', '--username', 'root', '--role', 'viewer');

    const ops = await json('supervisors', 'create', '--username', 'ops', '--role', 'viewer');
    const token = await json('tokens', 'create', '--username', 'ops', '--name', 'backup', '--expires-in-days', '5');
    expect((Date.parse(token.expires_at) - Date.now()) / 86_400_000).toBeCloseTo(5, 1);
    const sessionId = await openSession('ops', ops.password);

    expect(await json('supervisors', 'disable', '--username', 'ops')).toMatchObject({ username: 'ops', disabled_at: expect.any(String), sessions_revoked: 1 });
    const listed = await json('supervisors', 'list');
    expect(listed.find((s: { username: string }) => s.username === 'ops').disabled_at).not.toBeNull();
    expect(await json('supervisors', 'enable', '--username', 'ops')).toMatchObject({ disabled_at: null });

    const reset = await json('supervisors', 'reset-password', '--username', 'ops');
    expect(reset).toEqual({ username: 'ops', password: expect.stringMatching(/^\S{20,}$/), sessions_revoked: 0 });
    expect(reset.password).not.toBe(ops.password);
    expect(await json('supervisors', 'set-role', '--username', 'ops', '--role', 'supervisor')).toMatchObject({ role: 'supervisor' });

    const newSession = await openSession('ops', reset.password);
    const sessions = await json('supervisors', 'sessions', '--username', 'ops');
    expect(sessions.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      [newSession, 'active'],
      [sessionId, 'revoked'],
    ]);
    await cli('supervisors', 'revoke-session', newSession);
    expect((await json('supervisors', 'sessions', '--username', 'ops'))[0].status).toBe('revoked');

    const tokens = await json('tokens', 'list', '--username', 'ops');
    expect(tokens).toEqual([expect.objectContaining({ id: token.id, name: 'backup', status: 'active', expiresAt: token.expires_at })]);
    await cli('tokens', 'revoke', token.id);
    await cli('supervisors', 'delete', '--username', 'ops');
    expect((await json('supervisors', 'list')).map((s: { username: string }) => s.username)).toEqual(['root']);

    // The audit outlives the account and names the operating-system user who ran the CLI.
    const audit = await json('supervisors', 'audit', '--username', 'ops');
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      'delete',
      'revoke_token',
      'revoke_session',
      'set_role',
      'reset_password',
      'enable',
      'disable',
      'create_token',
      'create',
    ]);
    expect(audit[0]).toMatchObject({ actor: { kind: 'cli', id: null, name: `cli:${userInfo().username}` }, subject: { username: 'ops' } });
    expect(await cli('supervisors', 'audit', '--limit', '1')).toMatch(/cli:\S+ {2}delete {2}ops/);
  }, 300_000);

  it('explains bad usage of the account commands with exit code 2', async () => {
    await refused(/needs --username/, 'supervisors', 'disable');
    await refused(/needs --role/, 'supervisors', 'set-role', '--username', 'root', '--role', 'root');
    await refused(/No supervisor ghost/, 'supervisors', 'reset-password', '--username', 'ghost');
    await refused(/No session ses_nope/, 'supervisors', 'revoke-session', 'ses_nope');
    await refused(/expiresInDays/, 'tokens', 'create', '--username', 'root', '--expires-in-days', '-3');
    await refused(/future/, 'tokens', 'create', '--username', 'root', '--expires-at', '2001-01-01T00:00:00Z');
    await refused(/--limit/, 'supervisors', 'audit', '--limit', '0');
  }, 300_000);
});

describe.each(testDrivers())('first serve on %s', (driver) => {
  it('creates an admin with a generated password, printed once, that can log in and mint tokens', async () => {
    const db = await createTestDatabase(driver);
    try {
      const first = await startServe(db.env);
      const password = /password: (\S+)/.exec(first.stdout())?.[1];
      expect(first.stdout()).toMatch(/username: admin/);
      expect(password).toBeDefined();
      const login = await fetch(`${first.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status).toBe(200);
      const session = ((await login.json()) as { token: string }).token;
      const minted = await api(first.url, '/graphql', session, {
        method: 'POST',
        body: JSON.stringify({ query: 'mutation { createToken(username: "admin", name: "ci") { id token } }' }),
      });
      const body = (await minted.json()) as { data: { createToken: { token: string } } };
      expect(body.data.createToken.token).toMatch(/^vigil_st_/);
      expect((await api(first.url, '/api/devices', body.data.createToken.token)).status).toBe(200);
      expect(await first.stop()).toBe(0);

      const second = await startServe(db.env);
      expect(second.stdout()).not.toMatch(/password:/);
      await second.stop();
    } finally {
      await db.drop();
    }
  }, 300_000);
});
