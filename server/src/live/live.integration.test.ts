import pg from 'pg';
import type { Insights } from '../pipeline/insights.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { subscribe, subscribed, type Feed } from '../test-support/live.js';
import { createAccount, graphql, openSession, supervisorAccounts, type TestAccount } from '../test-support/supervisors.js';

const post = async (server: TestVigil, event: string, identity: string, deviceId = 'live-dev') => {
  const res = await server.post('/events', { event, identity, properties: { device_id: deviceId } });
  expect(res.status).toBe(200);
  return res.body.event_id as string;
};

describe.each(testDrivers())('eventAdded over graphql-ws on %s', (driver) => {
  let server: TestVigil;
  let accounts: Record<'admin' | 'supervisor' | 'viewer', TestAccount>;
  const open: Feed['client'][] = [];
  const track = (feed: Feed) => (open.push(feed.client), feed);

  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_LIVE_RECHECK_SECONDS: '1', VIGIL_LIVE_MAX_SUBSCRIPTIONS_PER_ACCOUNT: '2', VIGIL_LIVE_MAX_QUEUE: '3' });
    accounts = await supervisorAccounts(server);
  });
  // Each test starts with no subscription left on the server, so `subscribed` counts only its own.
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
    await subscribed(server, 0);
  });
  afterAll(async () => server?.close());

  it('delivers an event posted over REST once, with the fields the listing has', async () => {
    const feed = track(subscribe(server, `Bearer ${accounts.viewer.token}`, { identity: 'live-once' }));
    await subscribed(server, 1);
    const first = await post(server, 'login', 'live-once');
    const got = await feed.next();
    expect(got).toMatchObject({ id: first, name: 'login', identity: 'live-once', deviceId: 'live-dev' });
    const listed = await graphql(
      server,
      accounts.viewer.token,
      '{ events(filter: { identity: "live-once" }) { nodes { id name identity deviceId tags riskScore receivedAt } } }',
    );
    expect(listed.body.data.events.nodes).toEqual([got]);
    // Were the first delivered twice, the second copy would come before this one.
    const second = await post(server, 'login', 'live-once');
    expect((await feed.next()).id).toBe(second);
    await feed.client.dispose();
  });

  it('delivers nothing twice when an event is announced again, as a late NOTIFY after a catch-up read is', async () => {
    const feed = track(subscribe(server, `Bearer ${accounts.viewer.token}`, { identity: 'live-again' }));
    await subscribed(server, 1);
    const first = await post(server, 'login', 'live-again');
    expect((await feed.next()).id).toBe(first);
    server.vigil.feed.stored({ insights: { event_id: first } as Insights, replayed: false });
    const second = await post(server, 'login', 'live-again');
    expect((await feed.next()).id).toBe(second);
    await feed.client.dispose();
  });

  it('applies the filter exactly as the events listing does', async () => {
    const feed = track(subscribe(server, `Bearer ${accounts.viewer.token}`, { identity: 'live-filter', event: 'transfer' }));
    await subscribed(server, 1);
    await post(server, 'login', 'live-filter');
    await post(server, 'transfer', 'someone-else');
    const wanted = await post(server, 'transfer', 'live-filter');
    expect((await feed.next()).id).toBe(wanted);
    await feed.client.dispose();
  });

  it('refuses a connection without credentials (4401) or with a device key (4403)', async () => {
    expect(await subscribe(server, null).ended).toMatchObject({ code: 4401, reason: expect.stringMatching(/Bearer/) });
    expect(await subscribe(server, 'Bearer nope').ended).toMatchObject({ code: 4401 });
    expect(await subscribe(server, `Bearer ${server.writeKey}`).ended).toMatchObject({ code: 4403 });
  });

  it('runs only subscriptions over the socket: queries go to POST /graphql and its cost model', async () => {
    const feed = track(subscribe(server, `Bearer ${accounts.viewer.token}`, null, '{ me { username } }'));
    const { errors } = await feed.ended;
    expect(errors?.[0]).toMatchObject({ message: expect.stringMatching(/Only subscriptions/), extensions: { code: 'validation_failed' } });
  });

  it('answers a subscription sent over HTTP with validation_failed naming graphql-ws, never an internal error', async () => {
    const res = await graphql(server, accounts.viewer.token, 'subscription { eventAdded { id } }');
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/graphql-ws/), extensions: { code: 'validation_failed' } });
  });

  it('limits the subscriptions one account holds, with rate_limited', async () => {
    const account = await createAccount(server, 'viewer');
    const a = track(subscribe(server, `Bearer ${account.token}`));
    const b = track(subscribe(server, `Bearer ${account.token}`));
    await subscribed(server, 2);
    const c = track(subscribe(server, `Bearer ${account.token}`));
    const { errors } = await c.ended;
    expect(errors?.[0]).toMatchObject({ extensions: { code: 'rate_limited' }, message: expect.stringMatching(/VIGIL_LIVE_MAX_SUBSCRIPTIONS_PER_ACCOUNT/) });
    await Promise.all([a.client.dispose(), b.client.dispose()]);
  });

  it('closes a subscriber that falls more than VIGIL_LIVE_MAX_QUEUE events behind (4029)', async () => {
    const feed = track(subscribe(server, `Bearer ${accounts.viewer.token}`, { identity: 'live-slow' }));
    await subscribed(server, 1);
    // One batch is read and handed over at once: far more events than the 3 a subscriber may have waiting.
    const events = Array.from({ length: 20 }, () => ({ event: 'login', identity: 'live-slow', properties: { device_id: 'live-dev' } }));
    expect((await server.post('/events/batch', { events })).status).toBe(200);
    expect(await feed.ended).toMatchObject({ code: 4029, reason: expect.stringMatching(/Slow consumer/) });
  });

  it('ends the subscriptions of a revoked token (4403)', async () => {
    const account = await createAccount(server, 'viewer');
    const feed = track(subscribe(server, `Bearer ${account.token}`));
    await subscribed(server, 1);
    const revoked = await graphql(server, accounts.admin.token, 'mutation ($id: ID!) { revokeToken(id: $id) { id } }', { id: account.tokenId });
    expect(revoked.body.errors).toBeUndefined();
    expect(await feed.ended).toMatchObject({ code: 4403, reason: expect.stringMatching(/revoked/) });
  });

  it('serves a console session, and ends it when its account is disabled (4403)', async () => {
    const account = await createAccount(server, 'viewer');
    const session = await openSession(server, account);
    const feed = track(subscribe(server, `Bearer ${session.token}`, { identity: 'live-session' }));
    await subscribed(server, 1);
    const id = await post(server, 'login', 'live-session');
    expect((await feed.next()).id).toBe(id);
    const disabled = await graphql(server, accounts.admin.token, 'mutation ($u: String!) { disableSupervisor(username: $u) { username } }', {
      u: account.username,
    });
    expect(disabled.body.errors).toBeUndefined();
    expect(await feed.ended).toMatchObject({ code: 4403, reason: expect.stringMatching(/disabled/) });
  });
});

// Two Vigil processes' worth of servers on one PostgreSQL: one stores, the other's subscriber hears of it.
describe.runIf(testDrivers().includes('postgres'))('eventAdded across two Vigil instances on one PostgreSQL', () => {
  let db: TestDatabase;
  let a: TestVigil;
  let b: TestVigil;
  let viewer: TestAccount;
  const open: Feed['client'][] = [];
  const track = (feed: Feed) => (open.push(feed.client), feed);

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    a = await startTestVigil('postgres', {}, db);
    b = await startTestVigil('postgres', {}, db);
    viewer = (await supervisorAccounts(b)).viewer;
  });
  // A disposed client's subscription ends on the server a moment later: until it has, the next test's
  // `subscribed(b, 1)` would count the old one, post before its own is registered, and wait forever for the event.
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
    await subscribed(b, 0);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  it('delivers what was stored while its channel was away, once the channel is back, and nothing twice', async () => {
    const url = new URL(db.env.DATABASE_URL!);
    const name = decodeURIComponent(url.pathname.slice(1));
    const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
    await admin.connect();
    try {
      const feed = track(subscribe(b, `Bearer ${viewer.token}`, { identity: 'gap' }));
      await subscribed(b, 1);
      const before = await post(a, 'login', 'gap');
      expect((await feed.next()).id).toBe(before);
      // The channels cannot come back while new connections are refused; the connections a's pool holds stay open.
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`, [name]);
      const during = await post(a, 'login', 'gap');
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      expect((await feed.next()).id).toBe(during);
      const after = await post(a, 'login', 'gap');
      // Were `before` delivered again by the catch-up, it would come here instead.
      expect((await feed.next()).id).toBe(after);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
  });

  it('delivers to a subscriber of one instance an event posted to the other', async () => {
    const feed = track(subscribe(b, `Bearer ${viewer.token}`, { identity: 'across' }));
    await subscribed(b, 1);
    const id = await post(a, 'login', 'across');
    expect(await feed.next()).toMatchObject({ id, identity: 'across' });
  });
});
