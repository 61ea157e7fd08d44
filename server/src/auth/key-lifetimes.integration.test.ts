import { eq } from 'drizzle-orm';
import { apiKeys } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestResponse, type TestVigil } from '../test-support/harness.js';
import { createAccount, supervisorAccounts, supervisorRequest, type TestAccount } from '../test-support/supervisors.js';
import { Accounts } from './accounts.js';
import { sweepExpiries } from './expiry-sweep.js';
import { KeyStore } from './key-store.js';
import type { CredentialExpired, CredentialRotated } from './lifetimes.js';
import { SupervisorStore } from './supervisor-store.js';

const HOUR_MS = 60 * 60 * 1000;

/** A clock the test moves by hand, so an overlap passes without sleeping. */
function testClock(start = new Date()) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

/** What a refusal says to the caller, apart from its detail text: expired and revoked must be the same. */
const refusal = (res: TestResponse) => ({
  status: res.status,
  code: res.body?.code ?? res.body?.errors?.[0]?.extensions?.code,
  challenge: res.headers.get('www-authenticate'),
});

describe.each(testDrivers())('key and token lifetimes on %s', (driver) => {
  let server: TestVigil;
  let admin: TestAccount;
  const graphql = (query: string, token = admin.token) => supervisorRequest(server, 'POST', '/graphql', token, { query });
  const postEvent = (key: string) => server.post('/events', { event: 'login' }, { key });

  beforeAll(async () => {
    server = await startTestVigil(driver);
    admin = (await supervisorAccounts(server)).admin;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps a rotated key working through its overlap and refuses it after, as expired', async () => {
    const clock = testClock();
    const rotations: CredentialRotated[] = [];
    const keys = new KeyStore(server.database, { now: clock.now, events: { rotated: async (_tx, e) => void rotations.push(e) } });
    const old = await keys.create('write', 'rotated by clock');
    const rotated = await keys.rotate(old.id, 2);
    expect(rotated.key).toMatch(/^vigil_wk_/);
    expect(rotated).toMatchObject({ kind: 'write', name: 'rotated by clock', expires_at: null });
    expect(rotated.previous).toMatchObject({
      id: old.id,
      replaced_by: rotated.id,
      status: 'rotating',
      expires_at: new Date(clock.now().getTime() + 2 * HOUR_MS).toISOString(),
    });
    expect(rotations).toMatchObject([{ kind: 'write', id: old.id, replacedBy: rotated.id }]);

    clock.advance(2 * HOUR_MS - 1);
    expect((await keys.check(old.key)).ok).toBe(true);
    expect((await keys.check(rotated.key)).ok).toBe(true);
    clock.advance(1);
    expect(await keys.check(old.key)).toEqual({ ok: false, reason: 'expired' });
    expect((await keys.check(rotated.key)).ok).toBe(true);
    expect((await keys.list(old.id))[0]!.status).toBe('expired');
    // The replacement is the key from now on; rotating the old one again is refused.
    await expect(keys.rotate(old.id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('carries a key’s lifetime over to its replacement and never lengthens the old one', async () => {
    const clock = testClock();
    const keys = new KeyStore(server.database, { now: clock.now });
    const old = await keys.create('client', 'ten days', undefined, new Date(clock.now().getTime() + 10 * 24 * HOUR_MS));
    clock.advance(9 * 24 * HOUR_MS);
    const rotated = await keys.rotate(old.id, 48);
    expect(rotated.expires_at).toBe(new Date(clock.now().getTime() + 10 * 24 * HOUR_MS).toISOString());
    // Its own expiry, a day away, comes before the end of the two-day overlap.
    expect(rotated.previous.expires_at).toBe(old.expires_at);
  });

  it('keeps a rotated API token working through its overlap and refuses it after', async () => {
    const clock = testClock();
    const supervisors = new SupervisorStore(server.database, clock.now);
    const accounts = new Accounts({ database: server.database, supervisors, defaultTokenTtlDays: 90, defaultOverlapHours: 3, now: clock.now });
    const owner = await createAccount(server, 'viewer');
    const actor = { kind: 'cli', id: null, name: 'cli:test' } as const;
    const rotated = await accounts.rotateToken(actor, owner.tokenId);
    expect(rotated.previous).toMatchObject({ id: owner.tokenId, replacedBy: rotated.id, expiresAt: new Date(clock.now().getTime() + 3 * HOUR_MS) });

    clock.advance(3 * HOUR_MS - 1);
    expect((await supervisors.authenticate(owner.token)).ok).toBe(true);
    expect((await supervisors.authenticate(rotated.token)).ok).toBe(true);
    clock.advance(1);
    expect(await supervisors.authenticate(owner.token)).toEqual({ ok: false, reason: 'expired', kind: 'token' });
    expect((await supervisors.authenticate(rotated.token)).ok).toBe(true);
    expect((await accounts.history({ username: owner.username, limit: 5 }))[0]).toMatchObject({ action: 'rotate_token' });
  });

  it('refuses an expired key on REST exactly like a revoked one', async () => {
    // Created by a store whose clock is two hours behind, with an hour to live: expired an hour ago by the server's clock.
    const past = testClock(new Date(Date.now() - 2 * HOUR_MS));
    const expired = await new KeyStore(server.database, { now: past.now }).create('write', 'expired', undefined, new Date(Date.now() - HOUR_MS));
    const revoked = await server.vigil.keys.create('write', 'revoked');
    await server.vigil.keys.revoke(revoked.id);

    const refusedExpired = await postEvent(expired.key);
    expect(refusal(refusedExpired)).toEqual({ status: 401, code: 'unauthorized', challenge: 'Bearer realm="vigil", error="invalid_token"' });
    expect(refusal(refusedExpired)).toEqual(refusal(await postEvent(revoked.key)));
    expect(refusedExpired.body.detail).toMatch(/expired/);
    const viaHeader = await server.post('/events', { event: 'login' }, { key: null, headers: { 'x-api-key': expired.key } });
    expect(refusal(viaHeader)).toEqual(refusal(refusedExpired));
  });

  it('refuses an expired API token on GraphQL exactly like a revoked one', async () => {
    const owner = await createAccount(server, 'admin');
    const store = new SupervisorStore(server.database);
    const expired = await store.createToken(owner.id, 'expired', new Date(Date.now() - 1000));
    const revoked = await store.createToken(owner.id, 'revoked');
    await store.revoke(revoked.id);
    const refusedExpired = await graphql('{ me { username } }', expired.token);
    expect(refusal(refusedExpired)).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(refusal(refusedExpired)).toEqual(refusal(await graphql('{ me { username } }', revoked.token)));
  });

  it('rotates a key through GraphQL: the new one works at once, the old one until the overlap ends', async () => {
    const created = await graphql('mutation { createKey(kind: WRITE, name: "gql", expiresInDays: 30) { secret key { id expiresAt state } } }');
    const old = created.body.data.createKey;
    expect(old.key.state).toBe('ACTIVE');
    expect(new Date(old.key.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * HOUR_MS);

    const withOverlap = await graphql(`mutation { rotateKey(id: "${old.key.id}") { secret key { id state } previous { id state replacedBy expiresAt } } }`);
    const rotated = withOverlap.body.data.rotateKey;
    expect(rotated.previous).toMatchObject({ id: old.key.id, state: 'ROTATING', replacedBy: rotated.key.id });
    // The default overlap is VIGIL_KEY_ROTATION_OVERLAP_HOURS (24).
    expect(Math.abs(new Date(rotated.previous.expiresAt).getTime() - (Date.now() + 24 * HOUR_MS))).toBeLessThan(60_000);
    expect((await postEvent(old.secret)).status).toBe(200);
    expect((await postEvent(rotated.secret)).status).toBe(200);

    const noOverlap = await graphql(`mutation { rotateKey(id: "${rotated.key.id}", overlapHours: 0) { secret previous { state } } }`);
    expect(noOverlap.body.data.rotateKey.previous.state).toBe('EXPIRED');
    expect((await postEvent(rotated.secret)).status).toBe(401);
    expect((await postEvent(noOverlap.body.data.rotateKey.secret)).status).toBe(200);

    const again = await graphql(`mutation { rotateKey(id: "${rotated.key.id}") { secret } }`);
    expect(again.body.errors[0].extensions.code).toBe('conflict');
  });

  it('rotates an API token through GraphQL', async () => {
    const owner = await createAccount(server, 'viewer');
    const res = await graphql(`mutation { rotateToken(id: "${owner.tokenId}", overlapHours: 1) { token previous { id state replacedBy } } }`);
    const rotated = res.body.data.rotateToken;
    expect(rotated.previous).toMatchObject({ id: owner.tokenId, state: 'ROTATING' });
    expect((await graphql('{ me { username } }', owner.token)).body.data.me.username).toBe(owner.username);
    expect((await graphql('{ me { username } }', rotated.token)).body.data.me.username).toBe(owner.username);
  });

  it('records last use without a write per request, and shows it', async () => {
    const created = await server.vigil.keys.create('write', 'last use');
    const lastUsed = async () => (await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]!.lastUsedAt;
    expect((await server.post('/events', { event: 'x' }, { key: created.key })).status).toBe(200);
    expect(await lastUsed()).toBeNull();
    await server.vigil.keys.flushUsage();
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    const listed = await graphql(`{ keys { id lastUsedAt } }`);
    expect(listed.body.data.keys.find((k: { id: string }) => k.id === created.id).lastUsedAt).toBe(first!.toISOString());
    const tokens = await graphql(`{ tokens(username: "${admin.username}") { id lastUsedAt } }`);
    expect(tokens.body.data.tokens.find((t: { id: string }) => t.id === admin.tokenId).lastUsedAt).not.toBeNull();
  });

  it('notes each expiry once, in the transaction that tells the listeners', async () => {
    const told: CredentialExpired[] = [];
    const events = { expired: async (_tx: unknown, e: CredentialExpired) => void told.push(e) };
    const past = testClock(new Date(Date.now() - 2 * HOUR_MS));
    const key = await new KeyStore(server.database, { now: past.now }).create('write', 'sweep', undefined, new Date(Date.now() - HOUR_MS));
    const owner = await createAccount(server, 'viewer');
    const token = await new SupervisorStore(server.database).createToken(owner.id, 'sweep', new Date(Date.now() - 1000));
    const sweep = () => sweepExpiries({ database: server.database, keys: server.vigil.keys, supervisors: new SupervisorStore(server.database), events });
    await sweep();
    expect(told.map((e) => e.id)).toEqual(expect.arrayContaining([key.id, token.id]));
    const count = told.length;
    await sweep();
    expect(told.length).toBe(count);
  });
});
