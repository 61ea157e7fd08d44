import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../../auth/accounts.js';
import { SupervisorStore } from '../../auth/supervisor-store.js';
import { surfaceDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';
import { createAccount, supervisorRequest, type TestAccount } from '../../test-support/supervisors.js';

describe.each(surfaceDrivers())('supervisor login on %s', (driver) => {
  let server: TestVigil;
  let viewer: TestAccount;
  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_LOGIN_ATTEMPTS_PER_MINUTE: '50' });
    viewer = await createAccount(server, 'viewer', 'vera');
  });
  afterAll(async () => server?.close());

  const login = (username: string, password: string) => server.post('/api/auth/login', { username, password }, { key: null });

  it('logs in with a password, returns an expiring session that works, and logs out at once', async () => {
    const res = await login('vera', viewer.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.stringMatching(/^vigil_ss_/), supervisor: { username: 'vera', role: 'viewer' } });
    const ttl = Date.parse(res.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(11 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(12 * 3600_000);
    const me = await supervisorRequest(server, 'GET', '/api/auth/me', res.body.token);
    expect(me.body).toMatchObject({ username: 'vera', role: 'viewer', credential: { kind: 'session' } });
    expect((await supervisorRequest(server, 'GET', '/api/devices', res.body.token)).status).toBe(200);
    const out = await supervisorRequest(server, 'POST', '/api/auth/logout', res.body.token);
    expect(out.body).toEqual({ logged_out: true });
    expect((await supervisorRequest(server, 'GET', '/api/devices', res.body.token)).status).toBe(401);
  });

  it('refuses a wrong password and an unknown user alike (401)', async () => {
    const wrong = await login('vera', 'not the password');
    const unknown = await login('nobody', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
    expect((await login('vera', '')).status).toBe(400);
    expect((await server.post('/api/auth/login', { username: 'vera' }, { key: null })).status).toBe(400);
  });

  it('rate-limits guessing with 429 and Retry-After, even with the right password', async () => {
    // A server of its own: the limit counts every attempt from this client since it started.
    const fresh = await startTestVigil(driver, { VIGIL_LOGIN_ATTEMPTS_PER_MINUTE: '6' });
    try {
      const target = await createAccount(fresh, 'viewer', 'target');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await fresh.post('/api/auth/login', { username: 'target', password: `guess-${i}-xxxxxxxx` }, { key: null })).status);
      }
      // Per address and username: half of the per-address allowance.
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const limited = await fresh.post('/api/auth/login', { username: 'target', password: target.password }, { key: null });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(limited.body.code).toBe('rate_limited');
    } finally {
      await fresh.close();
    }
  });

  it('limits per browser behind a trusted console, not per console', async () => {
    // The console signs everyone in from its own address and passes the browser's on in X-Forwarded-For.
    const fresh = await startTestVigil(driver, { VIGIL_LOGIN_ATTEMPTS_PER_MINUTE: '3', VIGIL_TRUSTED_PROXIES: '127.0.0.1/32' });
    try {
      const from = (ip: string, username: string) =>
        fresh.post('/api/auth/login', { username, password: 'wrong-password-xx' }, { key: null, headers: { 'x-forwarded-for': ip } });
      const guesser = [];
      for (let i = 0; i < 4; i++) guesser.push((await from('198.51.100.1', `user${i}`)).status);
      expect(guesser).toEqual([401, 401, 401, 429]);
      // Another browser behind the same console still gets its own attempts.
      expect((await from('198.51.100.2', 'someone')).status).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  it('never locks a user out from another address: per username, guessing only slows answers down', async () => {
    const fresh = await startTestVigil(driver, { VIGIL_LOGIN_ATTEMPTS_PER_MINUTE: '4', VIGIL_TRUSTED_PROXIES: '127.0.0.1/32' });
    try {
      const target = await createAccount(fresh, 'admin', 'boss');
      const from = (ip: string, password: string) =>
        fresh.post('/api/auth/login', { username: 'boss', password }, { key: null, headers: { 'x-forwarded-for': ip } });
      // One address guessing: refused after its allowance for this username.
      const attacker: number[] = [];
      for (let i = 0; i < 4; i++) attacker.push((await from('203.0.113.66', `guess-${i}-xxxxxxxx`)).status);
      expect(attacker).toEqual([401, 401, 429, 429]);
      // Many addresses guessing the same username, well past the per-username allowance: never refused outright.
      const spread: number[] = [];
      for (let i = 1; i <= 6; i++) spread.push((await from(`203.0.113.${i}`, `guess-${i}-xxxxxxxx`)).status);
      expect(spread).toEqual([401, 401, 401, 401, 401, 401]);
      // The real user, from their own address, still signs in.
      const real = await from('198.51.100.7', target.password);
      expect(real.status).toBe(200);
      expect(real.body.supervisor.username).toBe('boss');
    } finally {
      await fresh.close();
    }
  });

  it('refuses a disabled account with 403 only after the right password; a wrong one stays 401', async () => {
    const account = await createAccount(server, 'viewer', 'dora');
    await new Accounts({ database: server.database, supervisors: new SupervisorStore(server.database), defaultTokenTtlDays: 90 }).disable(
      { kind: 'cli', id: null, name: 'cli:test' },
      'dora',
    );
    const wrong = await login('dora', 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toBe('Wrong username or password');
    const right = await login('dora', account.password);
    expect(right.status).toBe(403);
    expect(right.body).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/disabled/) });
  });

  it('logout with an API token leaves the token alone', async () => {
    const res = await supervisorRequest(server, 'POST', '/api/auth/logout', viewer.token);
    expect(res.body).toEqual({ logged_out: false });
    expect((await supervisorRequest(server, 'GET', '/api/devices', viewer.token)).status).toBe(200);
  });
});
