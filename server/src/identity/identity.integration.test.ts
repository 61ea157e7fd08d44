import { createHmac } from 'node:crypto';
import { SPAN_BUCKETS } from '@vigil/drizzle/schema';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTables } from '../backup/tables.js';
import { writeConfig } from '../behaviors/test-config.js';
import { rows } from '../db/rows.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { graphql, supervisorAccounts, supervisorRequest, type TestAccount } from '../test-support/supervisors.js';
import { testDrivers } from '../test-support/databases.js';
import { IdentityRequests } from './requests.js';

const behaviors = [
  { name: 'logins_by_identity', group_by: 'identity', operation: 'count', window_duration_seconds: 86_400 * 90 },
  { name: 'amount_by_email', group_by: 'properties.email', operation: 'sum', field: 'properties.amount', window_duration_seconds: 86_400 * 90 },
  {
    name: 'emails_by_device',
    group_by: 'device_id',
    operation: 'unique',
    field: 'properties.email',
    window_duration_seconds: 86_400 * 90,
    return_values: true,
  },
  { name: 'identities_by_phone', group_by: 'properties.phone', operation: 'unique', field: 'identity', window_duration_seconds: 86_400 * 90 },
];

const IDENTITY = 'Ann.Erase-7731';
const EMAIL = 'Ann.Lee+news@Gmail.com';
const NORMALIZED = 'annlee@gmail.com';
const PHONE = '+1 415 555 0123';
const E164 = '+14155550123';
const ERASED = [IDENTITY, EMAIL, NORMALIZED, PHONE, E164];
const DAY = 86_400_000;

/** Rows of every table (partitions and their parents included) whose text holds `value`, any case. */
async function survivors(server: TestVigil, value: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of await listTables(server.database.db)) {
    const [row] = await rows<{ n: number }>(
      server.database.db,
      sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} t WHERE strpos(lower(t::text), lower(${value})) > 0`,
    );
    if (row!.n > 0) found.push(`${table}: ${row!.n}`);
  }
  return found;
}

/** What erasure must leave as it was: how many events each device has, every counter's totals, history lengths. */
async function totals(server: TestVigil) {
  const db = server.database.db;
  return {
    devices: await rows(db, sql`SELECT device_id, count(*)::int AS n FROM events GROUP BY 1 ORDER BY 1`),
    deviceRows: await rows(db, sql`SELECT device_id, first_seen, last_seen FROM devices ORDER BY 1`),
    counters: await rows(
      db,
      sql`SELECT behavior_id, sum(count)::float8 AS count, sum(sum)::float8 AS sum, sum(coalesce(cardinality(items), 0))::int AS items, count(*)::int AS buckets
          FROM behavior_buckets GROUP BY 1 ORDER BY 1`,
    ),
    points: await rows(db, sql`SELECT behavior_id, count(*)::int AS n, sum(value)::float8 AS v FROM behavior_points GROUP BY 1 ORDER BY 1`),
    history: await rows(
      db,
      sql`SELECT (SELECT count(*)::int FROM registry_audit) AS audit, (SELECT count(*)::int FROM registrations) AS registrations,
                                       (SELECT count(*)::int FROM device_identities) AS seen, (SELECT count(*)::int FROM event_keys) AS keys`,
    ),
  };
}

describe.each(testDrivers())('identity export and erasure on %s', (driver) => {
  let server: TestVigil;
  let admin: TestAccount;
  let viewer: TestAccount;
  const now = Date.now();

  const send = async (identity: string | undefined, properties: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await server.post('/events', { event: 'login', ...(identity ? { identity } : {}), properties }, { headers });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    // A webhook subscription on loopback (nothing listens: its messages stay pending), so registry moves leave
    // messages quoting her in the outbox.
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors }), VIGIL_WEBHOOK_ALLOW_PRIVATE: '1' });
    ({ admin, viewer } = await supervisorAccounts(server));
    const hook = await graphql(server, admin.token, 'mutation($i: WebhookSubscriptionInput!) { createWebhookSubscription(input: $i) { secret } }', {
      i: { url: 'http://127.0.0.1:9/hook', eventTypes: ['device.registered', 'device.transferred'] },
    });
    expect(hook.body.errors, hook.text).toBeUndefined();
    // The identity's events over three months (three partitions), with its e-mail, phone and address.
    for (let i = 0; i < 9; i++) {
      await send(
        IDENTITY,
        {
          device_id: 'dev-ann',
          email: EMAIL,
          phone: PHONE,
          amount: 10 + i,
          ip_address: '203.0.113.7',
          timestamp: new Date(now - i * 8 * DAY).toISOString(),
          note: `hi, ${EMAIL} here`,
        },
        i === 0 ? { 'idempotency-key': `order-${IDENTITY}-1` } : {},
      );
    }
    await send(IDENTITY, { device_id: 'dev-ann-2', amount: 5 });
    // Someone else, on the same device, quoting her address and phone; and an anonymous event with her e-mail.
    await send('bob', { device_id: 'dev-ann', phone: PHONE, amount: 3, note: `referred by ${EMAIL.toUpperCase()}`, ip_address: '198.51.100.4' });
    await send(undefined, { device_id: 'dev-other', email: EMAIL, amount: 1 });
    await send('carol', { device_id: 'dev-carol', email: 'carol@example.org', amount: 2 });
    // Registered to her, then one device transferred away from her: the registry history names her.
    const reg = await server.post('/devices/dev-ann/register', { user_id: IDENTITY, metadata: { contact: EMAIL, branch: 'north' } });
    expect(reg.status, reg.text).toBe(200);
    expect((await server.post('/devices/dev-ann-2/register', { user_id: IDENTITY, metadata: {} })).status).toBe(200);
    const { supervisor } = await supervisorAccounts(server);
    const moved = await supervisorRequest(server, 'POST', '/api/devices/dev-ann-2/transfer', supervisor.token, { new_user_id: 'bob', by: 'desk' });
    expect(moved.status, moved.text).toBe(200);
  });
  afterAll(async () => server?.close());

  it('exports everything held about the identity, for admins only, and logs it under a keyed hash', async () => {
    const refused = await graphql(server, viewer.token, 'mutation($i: String!) { exportIdentity(identity: $i) { requestId } }', { i: IDENTITY });
    expect(refused.body.errors[0].extensions.code).toBe('forbidden');

    const res = await graphql(server, admin.token, 'mutation($i: String!) { exportIdentity(identity: $i) { requestId events record } }', { i: IDENTITY });
    expect(res.body.errors, res.text).toBeUndefined();
    const { events, record } = res.body.data.exportIdentity;
    expect(events).toBe(10);
    expect(record.identity).toBe(IDENTITY);
    expect(record.events).toHaveLength(10);
    expect(record.events.filter((e: any) => e.properties.email === EMAIL)).toHaveLength(9);
    expect(record.events[0]).toMatchObject({ identity: IDENTITY, ip: expect.any(String), response: expect.any(Object) });
    expect(record.devices.map((d: any) => d.device_id)).toEqual(['dev-ann', 'dev-ann-2']);
    expect(record.registrations).toEqual([expect.objectContaining({ device_id: 'dev-ann', user_id: IDENTITY, metadata: { contact: EMAIL, branch: 'north' } })]);
    expect(record.registry_history.map((a: any) => a.action)).toEqual(['register', 'register', 'transfer']);
    expect(record.device_identities.map((d: any) => d.device_id)).toEqual(['dev-ann', 'dev-ann-2']);
    expect(record.contact_sightings.emails).toEqual([expect.objectContaining({ value: NORMALIZED, linked: ['dev-ann', 'dev-other'] })]);
    expect(record.contact_sightings.phones).toEqual([expect.objectContaining({ value: E164, linked: ['bob', IDENTITY].sort() })]);
    // Her last event gave no ip_address: it is stored with the connecting address.
    expect(record.contact_sightings.ips).toEqual([
      expect.objectContaining({ ip: '203.0.113.7', events: 9 }),
      expect.objectContaining({ ip: '127.0.0.1', events: 1 }),
    ]);
    const counters = Object.fromEntries(record.behavior_counters.map((c: any) => [`${c.behavior} ${c.group_key}`, c.count]));
    expect(counters[`logins_by_identity ${IDENTITY}`]).toBe(10);
    expect(counters[`amount_by_email ${EMAIL}`]).toBe(10);

    const [log] = await rows<{ action: string; subject_hash: string; actor_name: string }>(server.database.db, sql`SELECT * FROM data_requests`);
    expect(log).toMatchObject({ action: 'export', actor_name: admin.username });
    const [key] = await rows<{ value: string }>(server.database.db, sql`SELECT value FROM generated_secrets WHERE name = 'data_request_key'`);
    expect(log!.subject_hash).toBe(createHmac('sha256', Buffer.from(key!.value, 'base64url')).update(IDENTITY).digest('hex'));
  });

  it('erases: no table holds the identity, its e-mail or its phone; device totals and counters are unchanged', async () => {
    // Every span of her buckets, as windows reading them whole build them (some are already): they quote her too.
    await server.database.db.execute(
      sql`INSERT INTO behavior_spans (behavior_id, group_key, span, count, sum, items)
          SELECT k.behavior_id, k.group_key, k.bucket / ${SPAN_BUCKETS}, 0, 0, array_agg(DISTINCT x.v) FILTER (WHERE x.v IS NOT NULL)
          FROM behavior_buckets k LEFT JOIN LATERAL unnest(k.items) AS x(v) ON true GROUP BY 1, 2, 3
          ON CONFLICT DO NOTHING`,
    );
    expect(await survivors(server, PHONE)).toEqual(expect.arrayContaining([expect.stringMatching(/^behavior_spans: /)]));
    for (const value of ERASED) expect(await survivors(server, value), value).not.toEqual([]);
    const before = await totals(server);

    const res = await graphql(server, admin.token, 'mutation($i: String!) { eraseIdentity(identity: $i) { requestId pseudonym found changed } }', {
      i: IDENTITY,
    });
    expect(res.body.errors, res.text).toBeUndefined();
    const erasure = res.body.data.eraseIdentity;
    expect(erasure.found).toEqual({ emails: 2, phones: 2, ips: 2 });
    expect(erasure.changed).toMatchObject({ events: 12, intel_sightings: 2, registrations: 1, registry_audit: 3, device_identities: 2, webhook_messages: 3 });

    for (const value of [...ERASED, '203.0.113.7']) expect(await survivors(server, value), value).toEqual([]);
    const after = await totals(server);
    expect(after).toEqual(before);
    // The history is there, under the pseudonym; other people's data is as it was.
    const db = server.database.db;
    expect(await rows(db, sql`SELECT user_id FROM registrations WHERE device_id = 'dev-ann'`)).toEqual([{ user_id: erasure.pseudonym }]);
    expect(await rows(db, sql`SELECT from_user, to_user FROM registry_audit WHERE action = 'transfer'`)).toEqual([
      { from_user: erasure.pseudonym, to_user: 'bob' },
    ]);
    expect(await rows(db, sql`SELECT ip FROM events WHERE identity = 'bob'`)).toEqual([{ ip: '198.51.100.4' }]);
    expect(await rows(db, sql`SELECT value FROM intel_sightings ORDER BY 1`)).toEqual([{ value: 'carol@example.org' }]);
    // A retry of her idempotent event still counts once: its key moved with the event.
    const [moved] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM event_keys k JOIN events e ON e.id = k.event_id AND e.idempotency_key = k.idempotency_key WHERE k.idempotency_key LIKE ${`order-${erasure.pseudonym}%`}`,
    );
    expect(moved!.n).toBe(1);
    const logged = await rows<{ action: string; detail: Record<string, unknown> }>(db, sql`SELECT action, detail FROM data_requests ORDER BY at, id`);
    expect(logged.map((l) => l.action)).toEqual(['export', 'erase']);
    expect(JSON.stringify(logged)).not.toContain(erasure.pseudonym);
    // Asked again, an admin finds what was done for her by her identity, which the log itself does not hold.
    const asked = await graphql(server, admin.token, 'query($i: String!) { identityRequests(identity: $i) { action actorName detail } }', { i: IDENTITY });
    expect(asked.body.data.identityRequests.map((r: any) => r.action)).toEqual(['erase', 'export']);
    expect(asked.body.data.identityRequests[0]).toMatchObject({ actorName: admin.username, detail: { changed: { events: 12 } } });
    expect((await graphql(server, admin.token, '{ identityRequests(identity: "nobody") { id } }')).body.data.identityRequests).toEqual([]);

    // New events on her devices and phone, through the warm fact cache: nothing brings her back.
    await send('dave', { device_id: 'dev-ann', phone: PHONE, amount: 1 });
    await send('erin', { device_id: 'dev-ann-2', email: 'erin@example.org' });
    for (const value of [IDENTITY, EMAIL, NORMALIZED]) expect(await survivors(server, value), value).toEqual([]);
  });

  it('walks many events in small batches, with progress, and a second erasure finds nothing left', async () => {
    for (let i = 0; i < 12; i++) await send('frank@example.net', { device_id: `dev-frank-${i % 3}`, amount: i });
    const lines: string[] = [];
    const requests = new IdentityRequests(server.database);
    const actor = { kind: 'cli', id: null, name: 'cli:test' } as const;
    const report = await requests.erase(actor, 'frank@example.net', { batchSize: 2, progress: (l) => lines.push(l) });
    expect(report.changed.events).toBe(12);
    expect(lines.filter((l) => l.startsWith("the identity's events ")).join('|')).toMatch(/: 12 rewritten$/);
    expect(await survivors(server, 'frank@example.net')).toEqual([]);
    const again = await requests.erase(actor, 'frank@example.net');
    // An identity that is an address is always an e-mail of its own.
    expect(again.found).toEqual({ emails: 1, phones: 0, ips: 0 });
    expect(again.changed.events).toBe(0);
  });

  it('finishes an interrupted erasure when run again: her own events, where her contacts are found, go last', async () => {
    const gina = 'gina-5512';
    const mail = 'gina.quote@example.net';
    // Her address only in her old events (the default partition, walked first); her recent event and a quote of
    // her address by someone else in this month's partition, walked after.
    for (const days of [70, 75]) await send(gina, { device_id: 'dev-gina', email: mail, timestamp: new Date(now - days * DAY).toISOString() });
    await send(gina, { device_id: 'dev-gina' });
    await send('hank', { device_id: 'dev-hank', note: `ask ${mail}` });
    const requests = new IdentityRequests(server.database);
    const actor = { kind: 'cli', id: null, name: 'cli:test' } as const;
    const stop = (line: string) => {
      if (line.startsWith('events ')) throw new Error('interrupted');
    };
    await expect(requests.erase(actor, gina, { batchSize: 2, progress: stop })).rejects.toThrow('interrupted');
    expect(await survivors(server, gina)).not.toEqual([]);
    const report = await requests.erase(actor, gina, { batchSize: 2 });
    expect(report.found.emails).toBe(1);
    for (const value of [gina, mail]) expect(await survivors(server, value), value).toEqual([]);
  });
});

describe.each(testDrivers())('identity erasure and the fact cache on %s', (driver) => {
  let server: TestVigil;
  // Without behaviors, batches take their facts from the per-process cache (behaviors need a transaction).
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  /** Entries in the server's fact cache, from its /metrics. */
  const cachedFacts = async () => {
    const text = (await server.get('/metrics', { key: null })).text;
    return Number(/^vigil_fact_cache_entries (\d+)$/m.exec(text)?.[1]);
  };

  it('empties the cache of every process, so her identity and phone are not kept in memory', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await server.post('/events', { event: 'login', identity: IDENTITY, properties: { device_id: 'dev-cache', phone: PHONE } });
      expect(res.status, res.text).toBe(200);
    }
    expect(await cachedFacts()).toBeGreaterThan(0);
    const { admin } = await supervisorAccounts(server);
    const res = await graphql(server, admin.token, 'mutation($i: String!) { eraseIdentity(identity: $i) { requestId } }', { i: IDENTITY });
    expect(res.body.errors, res.text).toBeUndefined();
    // Told over the database's notification channel, which on PostgreSQL arrives a moment after the answer.
    await expect.poll(cachedFacts, { timeout: 10_000 }).toBe(0);
    // The next events on her device and phone are answered and stored without bringing her back.
    const next = await server.post('/events', { event: 'login', identity: 'ivan', properties: { device_id: 'dev-cache', phone: PHONE } });
    expect(next.status, next.text).toBe(200);
    expect(next.body.phone_intel.identities_seen).toBe(1);
    expect(await survivors(server, IDENTITY)).toEqual([]);
  });
});
