import { sql as drizzleSql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { startPostgresServer, startReplica, type PostgresServer } from '../test-support/postgres-server.js';
import { subscribe, subscribed } from '../test-support/live.js';
import { createAccount, graphql, supervisorRequest } from '../test-support/supervisors.js';

/**
 * A real streaming replica made with `pg_basebackup -R` on loopback, serving GraphQL and /api reads
 * (DATABASE_REPLICA_URL) while events go to the primary; stopped and paused to show that its faults refuse
 * reports with a 503 and never touch ingestion.
 */
describe('reporting reads on a streaming replica', () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let vigil: TestVigil;
  let token: string;

  beforeAll(async () => {
    primary = await startPostgresServer();
    replica = await startReplica(primary);
    const env = { DATABASE_URL: primary.url, DATABASE_REPLICA_URL: replica.url };
    // Settle well under the tolerated lag: a replica behind by more than the settle time is what received order must survive.
    // The tolerated lag stays well above the 1.5 s that the received-order test holds the replica back for, so a
    // slow post on a loaded machine cannot tip that test's read into a 503.
    vigil = await startTestVigil('postgres', { VIGIL_REPLICA_MAX_LAG_SECONDS: '4', VIGIL_REPORTING_SETTLE_MS: '300' }, { env, drop: async () => {} });
    token = (await createAccount(vigil, 'admin')).token;
  });
  afterAll(async () => {
    await vigil?.close();
    await replica?.destroy();
    await primary?.destroy();
  });

  const post = (deviceId: string, n: number) =>
    vigil.post('/events', { event: 'login', identity: `user-${n}`, properties: { device_id: deviceId, event_id: `${deviceId}-${n}` } });
  const countOf = (deviceId: string) => graphql(vigil, token, `{ events(filter: {deviceId: "${deviceId}"}) { totalCount } }`);

  /** Polls GraphQL until it counts `expected` events of the device (replication is asynchronous). */
  async function eventuallyCounts(deviceId: string, expected: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await countOf(deviceId);
      if (response.status === 200 && response.body.data?.events.totalCount === expected) return;
      if (Date.now() > deadline) throw new Error(`never saw ${expected} events of ${deviceId}: ${response.status} ${response.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function sql<T>(url: string, text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }

  it('serves an event posted to the primary through GraphQL once replicated, reading on the replica only', async () => {
    expect((await post('rep-a', 1)).status).toBe(200);
    await eventuallyCounts('rep-a', 1);
    const reportingOn = async (url: string) =>
      (await sql<{ n: number }>(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'vigil-reporting'"))[0]!.n;
    expect(await reportingOn(replica.url)).toBeGreaterThan(0);
    expect(await reportingOn(primary.url)).toBe(0);
    const ready = await vigil.get('/readyz', { key: null });
    expect(ready.body).toMatchObject({ status: 'ready', replica: { status: 'ready' } });
  });

  it('announces events on the live feed while the replica has yet to replay them', async () => {
    await sql(replica.url, 'SELECT pg_wal_replay_pause()');
    const feed = subscribe(vigil, `Bearer ${token}`, { deviceId: 'rep-live' });
    try {
      await subscribed(vigil, 1);
      const posted = await post('rep-live', 1);
      expect(posted.status).toBe(200);
      expect((await feed.next()).id).toBe(posted.body.event_id);
    } finally {
      await feed.client.dispose();
      await sql(replica.url, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('reads received order only up to its lag and the settle time before now, and everything once caught up', async () => {
    const page = async () =>
      (await graphql(vigil, token, '{ events(filter: {deviceId: "rep-order"}, order: RECEIVED_ASC, first: 100) { nodes { id receivedAt } } }')).body.data.events
        .nodes as { receivedAt: string }[];
    expect((await post('rep-order', 1)).status).toBe(200);
    await eventuallyCounts('rep-order', 1);
    await sql(replica.url, 'SELECT pg_wal_replay_pause()');
    try {
      expect((await post('rep-order', 2)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1500));
      // Behind the primary: the cut is the settle time (300 ms), one sampling second and the lag before now.
      const asked = Date.now();
      for (const node of await page()) expect(new Date(node.receivedAt).getTime()).toBeLessThan(asked - 300 - 1000);
    } finally {
      await sql(replica.url, 'SELECT pg_wal_replay_resume()');
    }
    await eventuallyCounts('rep-order', 2);
    const deadline = Date.now() + 10_000;
    while ((await page()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await page()).toHaveLength(2);
  });

  it('reads a supervisor change back from the primary, not from a replica that may not have it yet', async () => {
    expect((await vigil.post('/devices/rep-a/register', { user_id: 'first-owner' })).status).toBe(200);
    // Replay paused: the replica holds the registry as it was, so the answer can only come from the primary.
    await sql(replica.url, 'SELECT pg_wal_replay_pause()');
    try {
      const moved = await graphql(vigil, token, 'mutation { transferDevice(deviceId: "rep-a", newUserId: "new-owner") { id registration { userId } } }');
      expect(moved.body.errors).toBeUndefined();
      expect(moved.body.data.transferDevice.registration.userId).toBe('new-owner');
      const rest = await supervisorRequest(vigil, 'POST', '/api/devices/rep-a/transfer', token, { new_user_id: 'third-owner', by: 'ops' });
      expect(rest.status).toBe(200);
      expect(rest.body.user_id).toBe('third-owner');
    } finally {
      await sql(replica.url, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('refuses reports with a 503 while the replica lags, and serves them again once it caught up', async () => {
    await sql(replica.url, 'SELECT pg_wal_replay_pause()');
    try {
      for (let n = 0; n < 3; n++) expect((await post('rep-lag', n)).status).toBe(200);
      // The limit is 4 s; the monitor asks every second.
      await new Promise((r) => setTimeout(r, 5500));
      const refused = await countOf('rep-lag');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body.errors[0].extensions.code).toBe('unavailable');
      expect(refused.body.errors[0].message).toMatch(/behind the primary/);
      const ready = await vigil.get('/readyz', { key: null });
      expect(ready.status).toBe(200);
      expect(ready.body.replica.status).toBe('lagging');
    } finally {
      await sql(replica.url, 'SELECT pg_wal_replay_resume()');
    }
    await eventuallyCounts('rep-lag', 3);
  });

  it('keeps accepting events while the replica is stopped; reports are 503 until it is back', async () => {
    await replica.stop();
    try {
      for (let n = 0; n < 5; n++) expect((await post('rep-down', n)).status).toBe(200);
      const gql = await countOf('rep-down');
      expect(gql.status).toBe(503);
      expect(gql.body.errors[0].extensions.code).toBe('unavailable');
      expect(gql.body.errors[0].message).toMatch(/replica/);
      const rest = await supervisorRequest(vigil, 'GET', '/api/devices', token);
      expect(rest.status).toBe(503);
      expect(rest.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(rest.headers.get('retry-after')).toBe('5');
      // A read on a checked-out connection (a transaction, a streamed export) is refused the same way.
      await expect(vigil.database.reporting.transaction((tx) => tx.execute(drizzleSql`SELECT 1`))).rejects.toMatchObject({ code: 'unavailable' });
      // The process stays in rotation: /readyz is about the primary, and says what the replica is doing.
      const ready = await vigil.get('/readyz', { key: null });
      expect(ready.status).toBe(200);
      expect(ready.body.replica).toEqual({ status: 'unreachable', lag_seconds: null });
      expect((await post('rep-down', 5)).status).toBe(200);
    } finally {
      await replica.start();
    }
    await eventuallyCounts('rep-down', 6);
  });
});
