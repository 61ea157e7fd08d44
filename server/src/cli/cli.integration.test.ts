import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, surfaceDrivers, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { assertBuilt, runCli, spawnCli, startServe } from '../test-support/cli.js';

// Tests on PGlite alone run with the PGlite pass (all of them unless VIGIL_TEST_DRIVERS picks the PostgreSQL one).
const pglitePass = testDrivers().includes('pglite');

beforeAll(() => assertBuilt());

describe.each(testDrivers())('vigil CLI on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver, { migrated: false });
  });
  afterAll(async () => db?.drop());

  it('migrates an empty database, twice without harm', async () => {
    for (let i = 0; i < 2; i++) {
      // As a process of its own, so the empty stderr covers what Node and the libraries would print too.
      const res = await spawnCli(['migrate'], db.env);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/Migrations applied/);
    }
  });
});

describe.each(surfaceDrivers())('vigil keys on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => db?.drop());

  it('creates, lists and revokes keys; the secret is shown only at creation', async () => {
    const created = await runCli(['keys', 'create', '--kind', 'client', '--name', 'android app', '--json'], db.env);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(Object.keys(key).sort()).toEqual(['expires_at', 'id', 'key', 'kind', 'name']);
    expect(key).toMatchObject({ kind: 'client', name: 'android app', expires_at: null });
    expect(key.id).toMatch(/^key_/);
    expect(key.key).toMatch(/^vigil_ck_/);

    const listed = await runCli(['keys', 'list', '--json'], db.env);
    expect(listed.stdout).not.toContain(key.key);
    const rows = JSON.parse(listed.stdout);
    expect(rows.find((r: { id: string }) => r.id === key.id)).toMatchObject({ status: 'active', display_prefix: key.key.slice(0, 13) });

    expect((await runCli(['keys', 'revoke', key.id], db.env)).code).toBe(0);
    const after = JSON.parse((await runCli(['keys', 'list', '--json'], db.env)).stdout);
    expect(after.find((r: { id: string }) => r.id === key.id).status).toBe('revoked');
  });

  it('creates a key with an expiry and rotates it: the old key works through the overlap beside the new one', async () => {
    const json = async (...args: string[]) => {
      const res = await runCli(args, db.env);
      expect(res.stderr).toBe('');
      return JSON.parse(res.stdout);
    };
    const HOUR_MS = 60 * 60 * 1000;
    const near = (iso: string, ms: number) => Math.abs(new Date(iso).getTime() - (Date.now() + ms)) < 10 * 60_000;
    const key = await json('keys', 'create', '--kind', 'write', '--name', 'rotating backend', '--expires-in-days', '7', '--json');
    expect(near(key.expires_at, 7 * 24 * HOUR_MS)).toBe(true);

    const rotated = await json('keys', 'rotate', key.id, '--overlap-hours', '2', '--json');
    expect(rotated).toMatchObject({ kind: 'write', name: 'rotating backend', previous: { id: key.id } });
    expect(rotated.key).toMatch(/^vigil_wk_/);
    expect(near(rotated.expires_at, 7 * 24 * HOUR_MS)).toBe(true);
    expect(near(rotated.previous.expires_at, 2 * HOUR_MS)).toBe(true);
    const rows = await json('keys', 'list', '--json');
    expect(rows.find((r: { id: string }) => r.id === key.id)).toMatchObject({ status: 'rotating', replaced_by: rotated.id });
    expect(rows.find((r: { id: string }) => r.id === rotated.id)).toMatchObject({ status: 'active', replaced_by: null });

    const again = await runCli(['keys', 'rotate', key.id], db.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already been rotated/);
    expect((await runCli(['keys', 'rotate', rotated.id, '--overlap-hours', 'soon'], db.env)).code).toBe(2);
  }, 300_000);

  it('explains bad usage with exit code 2', async () => {
    const res = await runCli(['keys', 'create', '--kind', 'admin', '--name', 'x'], db.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--kind write\|client/);
    expect((await runCli(['keys', 'revoke', 'key_nope'], db.env)).code).toBe(2);
    // The built binary, as a process: its exit status is the command's.
    const unknown = await spawnCli(['frobnicate'], db.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^vigil: Unknown command frobnicate/);
  });

  it('refuses an invalid environment clearly', async () => {
    const res = await spawnCli(['migrate'], { ...db.env, PORT: 'eighty' });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/PORT/);
  });
});

describe.each(testDrivers())('vigil serve on %s', (driver) => {
  it('prints the first keys once, on the first start only, and they work', async () => {
    const db = await createTestDatabase(driver);
    try {
      const first = await startServe(db.env);
      const out = first.stdout();
      expect(out).toMatch(/shown ONCE/);
      const writeKey = /vigil_wk_[0-9A-Za-z]{32}/.exec(out)?.[0];
      expect(/vigil_ck_[0-9A-Za-z]{32}/.test(out)).toBe(true);
      expect(out).toMatch(/Vigil server: http:\/\/127\.0\.0\.1:\d+/);
      const res = await fetch(`${first.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'login' }),
      });
      expect(res.status).toBe(200);
      expect(await first.stop()).toBe(0);

      const second = await startServe(db.env);
      expect(second.stdout()).not.toMatch(/vigil_wk_/);
      await second.stop();
    } finally {
      await db.drop();
    }
  });
});

describe.runIf(pglitePass)('the embedded database allows one process per data directory', () => {
  it('fails a CLI command at once with a clear message while serve holds the directory, without harm', async () => {
    const db = await createTestDatabase('pglite');
    try {
      const server = await startServe(db.env);
      const started = Date.now();
      const res = await runCli(['keys', 'list'], db.env);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/in use by process \d+/);
      expect(res.stderr).toMatch(/DATABASE_URL/);
      expect(Date.now() - started).toBeLessThan(20_000);
      // The server is unharmed and the data opens cleanly after it stops.
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await server.stop()).toBe(0);
      const after = await runCli(['keys', 'list', '--json'], db.env);
      expect(after.code).toBe(0);
      expect(JSON.parse(after.stdout)).toHaveLength(2);
    } finally {
      await db.drop();
    }
  });
});
