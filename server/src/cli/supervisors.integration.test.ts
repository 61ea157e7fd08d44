import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';

beforeAll(() => assertBuilt());

const api = (url: string, path: string, token: string, init: RequestInit = {}) =>
  fetch(url + path, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe.each(testDrivers())('vigil supervisors and tokens on %s', (driver) => {
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

    const chosen = await runCli(['supervisors', 'create', '--username', 'vic', '--role', 'viewer', '--password-stdin', '--json'], db.env, 'a long chosen password\n');
    expect(JSON.parse(chosen.stdout)).toEqual({ username: 'vic', role: 'viewer', password: null });

    const token = JSON.parse((await runCli(['tokens', 'create', '--username', 'maria', '--json'], db.env)).stdout);
    expect(Object.keys(token).sort()).toEqual(['id', 'token']);
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
