import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { graphqlAuthCases } from '../test-support/auth-cases.js';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { graphql, supervisorAccounts, type TestAccount } from '../test-support/supervisors.js';

interface Seed {
  id: string;
  name: string;
  device: string | null;
  tags: string[];
  score: number;
  at: string;
  reg: { branch: string | null; role: string | null; user: string } | null;
}

// Stored as ingestion stores them, with the device's registration of the moment in the response.
const MARCH: Seed[] = [
  {
    id: 'evt_s1',
    name: 'login',
    device: 'dev-a',
    tags: ['vpn', 'new_device'],
    score: 0.5,
    at: '2025-03-10T23:30:00Z',
    reg: { branch: 'harbour', role: 'teller', user: 'ana' },
  },
  {
    id: 'evt_s2',
    name: 'login',
    device: 'dev-a',
    tags: ['vpn'],
    score: 0.7,
    at: '2025-03-11T00:30:00Z',
    reg: { branch: 'harbour', role: 'teller', user: 'ana' },
  },
  { id: 'evt_s3', name: 'transfer', device: 'dev-b', tags: [], score: 0.1, at: '2025-03-11T10:00:00Z', reg: null },
  {
    id: 'evt_s4',
    name: 'transfer',
    device: 'dev-c',
    tags: ['new_device'],
    score: 0.9,
    at: '2025-03-17T09:00:00Z',
    reg: { branch: 'hill', role: 'agent', user: 'bob' },
  },
  { id: 'evt_s5', name: 'login', device: null, tags: ['vpn'], score: 0.3, at: '2025-03-11T12:00:00Z', reg: null },
];
// The latest events of the registry devices, for tags by device.
const LATEST: Seed[] = [
  { id: 'evt_l1', name: 'probe', device: 's-1', tags: ['vpn', 'tor'], score: 0.2, at: '2030-01-01T00:00:00Z', reg: null },
  { id: 'evt_l2', name: 'probe', device: 's-2', tags: ['vpn'], score: 0.2, at: '2030-01-01T00:00:00Z', reg: null },
  { id: 'evt_l4', name: 'probe', device: 's-4', tags: [], score: 0.2, at: '2030-01-01T00:00:00Z', reg: null },
];
const march = { from: '2025-03-01T00:00:00Z', to: '2025-04-01T00:00:00Z' };

/** Rows as answered, with means rounded (a float sum's last bits are not the point). */
const rounded = (rows: Record<string, unknown>[]): Record<string, unknown>[] =>
  rows.map((r) => ({ ...r, ...(typeof r.meanScore === 'number' ? { meanScore: Math.round(r.meanScore * 1e6) / 1e6 } : {}) }));

describe.each(testDrivers())('eventStats and deviceStats on %s', (driver) => {
  let server: TestVigil;
  let viewer: TestAccount;
  let supervisor: TestAccount;
  const gql = (query: string, variables: Record<string, unknown> = {}) => graphql(server, viewer.token, query, variables);
  const eventStats = async (args: string, variables: Record<string, unknown> = {}) => {
    const res = await gql(
      `query ($filter: EventFilter, $tz: String) { eventStats(filter: $filter, timeZone: $tz, ${args}) { bucket tag event branch role userId count meanScore maxScore distinctDevices } }`,
      variables,
    );
    expect(res.body.errors).toBeUndefined();
    return rounded(res.body.data.eventStats);
  };
  const row = (fields: Record<string, unknown>) => ({ bucket: null, tag: null, event: null, branch: null, role: null, userId: null, ...fields });

  beforeAll(async () => {
    server = await startTestVigil(driver);
    ({ viewer, supervisor } = await supervisorAccounts(server));
    const key = await server.vigil.keys.create('write', 'stats seed');
    for (const e of [...MARCH, ...LATEST]) {
      const device = { registered_to: e.reg?.user ?? null, role: e.reg?.role ?? null, metadata: e.reg?.branch ? { branch: e.reg.branch } : {} };
      await server.database.db.execute(sql`INSERT INTO events (id, key_id, name, device_id, handprint_id, properties, tags, risk_score, response, occurred_at, received_at)
        VALUES (${e.id}, ${key.id}, ${e.name}, ${e.device}, 'hp', '{}', ${`{${e.tags.join(',')}}`}::text[], ${e.score},
          ${JSON.stringify({ event_id: e.id, device })}::jsonb, ${e.at}, ${e.at})`);
    }
    const reg = (id: string, user: string, metadata: Record<string, unknown>) =>
      server.post(`/devices/${id}/register`, { user_id: user, metadata }, { key: server.clientKey });
    await reg('s-1', 'ana', { role: 'teller', branch: 'harbour' });
    await reg('s-2', 'bob', { role: 'teller', branch: 'hill' });
    await reg('s-3', 'cy', { role: 'agent', branch: 'harbour' });
    const mutate = (query: string) => graphql(server, supervisor.token, query);
    await mutate('mutation { deactivateDevice(deviceId: "s-3", reason: "lost") { status } }');
    expect((await server.post('/events', { event: 'login', identity: 'ana', properties: { device_id: 's-1' } })).status).toBe(200);
    await mutate('mutation { transferDevice(deviceId: "s-1", newUserId: "dan", by: "test") { id } }');
    expect((await server.post('/events', { event: 'login', identity: 'dan', properties: { device_id: 's-1' } })).status).toBe(200);
    expect((await server.post('/events', { event: 'login', properties: { device_id: 's-4' } })).status).toBe(200);
  });
  afterAll(async () => server?.close());

  graphqlAuthCases(() => server, { name: 'query eventStats', query: '{ eventStats(groupBy: [TAG]) { count } }', permission: 'read' });
  graphqlAuthCases(() => server, { name: 'query deviceStats', query: '{ deviceStats(groupBy: [STATUS]) { count } }', permission: 'read' });

  it('counts each event once under each of its tags, and untagged events under null', async () => {
    expect(await eventStats('groupBy: [TAG]', { filter: march })).toEqual([
      row({ tag: 'new_device', count: 2, meanScore: 0.7, maxScore: 0.9, distinctDevices: 2 }),
      row({ tag: 'vpn', count: 3, meanScore: 0.5, maxScore: 0.7, distinctDevices: 1 }),
      row({ tag: null, count: 1, meanScore: 0.1, maxScore: 0.1, distinctDevices: 1 }),
    ]);
  });

  it('buckets by day in the time zone asked for', async () => {
    expect(await eventStats('groupBy: [EVENT], bucket: DAY', { filter: march })).toEqual([
      row({ bucket: '2025-03-10T00:00:00.000Z', event: 'login', count: 1, meanScore: 0.5, maxScore: 0.5, distinctDevices: 1 }),
      row({ bucket: '2025-03-11T00:00:00.000Z', event: 'login', count: 2, meanScore: 0.5, maxScore: 0.7, distinctDevices: 1 }),
      row({ bucket: '2025-03-11T00:00:00.000Z', event: 'transfer', count: 1, meanScore: 0.1, maxScore: 0.1, distinctDevices: 1 }),
      row({ bucket: '2025-03-17T00:00:00.000Z', event: 'transfer', count: 1, meanScore: 0.9, maxScore: 0.9, distinctDevices: 1 }),
    ]);
    // 23:30 UTC on the 10th is already the 11th in Paris; midnight there is 23:00 UTC.
    expect(await eventStats('groupBy: [EVENT], bucket: DAY', { filter: march, tz: 'Europe/Paris' })).toEqual([
      row({ bucket: '2025-03-10T23:00:00.000Z', event: 'login', count: 3, meanScore: 0.5, maxScore: 0.7, distinctDevices: 1 }),
      row({ bucket: '2025-03-10T23:00:00.000Z', event: 'transfer', count: 1, meanScore: 0.1, maxScore: 0.1, distinctDevices: 1 }),
      row({ bucket: '2025-03-16T23:00:00.000Z', event: 'transfer', count: 1, meanScore: 0.9, maxScore: 0.9, distinctDevices: 1 }),
    ]);
    // New York is on daylight time (UTC−4) from 9 March 2025: every event of the 10th and 11th falls on its 10th or 11th.
    expect(await eventStats('groupBy: [], bucket: HOUR', { filter: { ...march, to: '2025-03-11T01:00:00Z' }, tz: 'America/New_York' })).toEqual([
      row({ bucket: '2025-03-10T23:00:00.000Z', count: 1, meanScore: 0.5, maxScore: 0.5, distinctDevices: 1 }),
      row({ bucket: '2025-03-11T00:00:00.000Z', count: 1, meanScore: 0.7, maxScore: 0.7, distinctDevices: 1 }),
    ]);
  });

  it('buckets by week, starting on Monday', async () => {
    expect(await eventStats('groupBy: [], bucket: WEEK', { filter: march })).toEqual([
      row({ bucket: '2025-03-10T00:00:00.000Z', count: 4, meanScore: 0.4, maxScore: 0.7, distinctDevices: 2 }),
      row({ bucket: '2025-03-17T00:00:00.000Z', count: 1, meanScore: 0.9, maxScore: 0.9, distinctDevices: 1 }),
    ]);
  });

  it('groups by the registration recorded with each event, filtered as the events listing filters', async () => {
    expect(await eventStats('groupBy: [USER, BRANCH, ROLE]', { filter: { ...march, minScore: 0.2 } })).toEqual([
      row({ branch: 'harbour', role: 'teller', userId: 'ana', count: 2, meanScore: 0.6, maxScore: 0.7, distinctDevices: 1 }),
      row({ branch: 'hill', role: 'agent', userId: 'bob', count: 1, meanScore: 0.9, maxScore: 0.9, distinctDevices: 1 }),
      row({ count: 1, meanScore: 0.3, maxScore: 0.3, distinctDevices: 0 }),
    ]);
    // s-1 now belongs to dan; its first event was answered while ana held it, and stays hers.
    const rows = await eventStats('groupBy: [USER]', { filter: { deviceId: 's-1', event: 'login' } });
    expect(rows.map((r) => [r.userId, r.count, r.distinctDevices])).toEqual([
      ['ana', 1, 1],
      ['dan', 1, 1],
    ]);
  });

  it('answers one row of totals without keys, also when nothing matches', async () => {
    expect(await eventStats('groupBy: []', { filter: march })).toEqual([row({ count: 5, meanScore: 0.5, maxScore: 0.9, distinctDevices: 3 })]);
    expect(await eventStats('groupBy: []', { filter: { ...march, event: 'nothing' } })).toEqual([
      row({ count: 0, meanScore: null, maxScore: null, distinctDevices: 0 }),
    ]);
  });

  it('refuses a time zone that is not an IANA name with validation_failed, never a 500', async () => {
    for (const tz of ['Mars/Olympus', '+05:00', 'UTC+5', '']) {
      const res = await gql('query ($tz: String) { eventStats(groupBy: [], bucket: DAY, timeZone: $tz) { count } }', { tz });
      expect(res.body.errors?.[0]?.extensions?.code, tz).toBe('validation_failed');
      expect(res.body.errors[0].message).toMatch(/IANA time zone/);
    }
  });

  it('counts devices by status, by role and branch, and by the tags of their latest event', async () => {
    const deviceStats = async (args: string, variables: Record<string, unknown> = {}) => {
      const res = await gql(`query ($filter: DeviceFilter) { deviceStats(filter: $filter, ${args}) { status role branch tag count } }`, variables);
      expect(res.body.errors).toBeUndefined();
      return res.body.data.deviceStats;
    };
    const d = (fields: Record<string, unknown>) => ({ status: null, role: null, branch: null, tag: null, ...fields });
    // Seen only through events: dev-a..dev-c were inserted directly and never seen, so the devices are s-1..s-4.
    expect(await deviceStats('groupBy: [STATUS]')).toEqual([
      d({ status: 'ACTIVE', count: 2 }),
      d({ status: 'DEACTIVATED', count: 1 }),
      d({ status: 'UNREGISTERED', count: 1 }),
    ]);
    expect(await deviceStats('groupBy: [BRANCH, ROLE]')).toEqual([
      d({ role: 'agent', branch: 'harbour', count: 1 }),
      d({ role: 'teller', branch: 'harbour', count: 1 }),
      d({ role: 'teller', branch: 'hill', count: 1 }),
      d({ count: 1 }),
    ]);
    expect(await deviceStats('groupBy: [TAG]')).toEqual([d({ tag: 'tor', count: 1 }), d({ tag: 'vpn', count: 2 }), d({ count: 2 })]);
    expect(await deviceStats('groupBy: [STATUS, TAG]', { filter: { branch: 'harbour' } })).toEqual([
      d({ status: 'ACTIVE', tag: 'tor', count: 1 }),
      d({ status: 'ACTIVE', tag: 'vpn', count: 1 }),
      d({ status: 'DEACTIVATED', count: 1 }),
    ]);
    expect(await deviceStats('groupBy: []', { filter: { status: 'ACTIVE' } })).toEqual([d({ count: 2 })]);
  });
});
