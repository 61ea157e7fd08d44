import { request as httpRequest } from 'node:http';
import { eq } from 'drizzle-orm';
import { devices, events, registrations, registryAudit } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../auth/key-store.js';
import { graphqlAuthCases, supervisorAuthCases } from '../../test-support/auth-cases.js';
import { surfaceDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestResponse, type TestVigil } from '../../test-support/harness.js';
import { graphql, supervisorAccounts, supervisorRequest, type TestAccount } from '../../test-support/supervisors.js';

/**
 * The devices half of a console for thousands of devices: prefix search, last-seen and risk sorts, bulk moves with
 * a result per device, feedback that says what changed, any device id anywhere, and the streamed export.
 */

const T0 = Date.UTC(2025, 5, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

interface Seed {
  id: string;
  user?: string;
  status?: 'active' | 'deactivated';
  /** Scores of its events, oldest first; the last one is the device's risk. */
  scores?: number[];
  /** Minute of its latest event (default: its index). */
  lastMinute?: number;
}

/** Ids that break naive URL, LIKE or CSV handling, each registered and seen. */
const ODD_IDS = ['a%b', '100%', 'a/b', '..', '.', 'with space', 'hash#id', 'q?x=1&y', 'ünï-😀-日本', '=cmd|calc', '-neg', 'x\\y', 'a_b', 'export'];

const seeds: Seed[] = [
  { id: 'shop%1', user: 'ana', scores: [0.9, 0.2] },
  { id: 'shop_x', user: 'ana', scores: [0.5] },
  { id: 'shopA', user: 'bruno', scores: [0.7] },
  { id: 'shop\\z', user: 'bruno', scores: [0.1] },
  { id: 'shopping-1', user: 'ana%', scores: [0.95] },
  { id: 'shopping-2', user: 'ana_b', status: 'deactivated', scores: [0.3] },
  { id: 'shop-never-seen', user: 'carla' },
  { id: 'SHOP-upper', user: 'carla', scores: [0.6] },
  ...ODD_IDS.map((id, i) => ({ id, user: `odd-${i}`, scores: [i / 100] })),
  ...Array.from({ length: 40 }, (_, i) => ({
    id: `fleet-${String(i).padStart(2, '0')}`,
    user: `u${i % 5}`,
    scores: i % 3 === 0 ? [0.5] : [((i * 37) % 100) / 100],
    lastMinute: (i * 13) % 40,
  })),
];
/** Seen in events, never registered. */
const SEEN_ONLY = ['shop-unreg', 'fleet-unreg'];

describe.each(surfaceDrivers())('supervisor devices for the console on %s', (driver) => {
  let server: TestVigil;
  let accounts: Record<'admin' | 'supervisor' | 'viewer', TestAccount>;

  beforeAll(async () => {
    server = await startTestVigil(driver);
    accounts = await supervisorAccounts(server);
    const keyId = (await new KeyStore(server.database).create('write', 'fixtures')).id;
    const db = server.database.db;
    const registered = new Date(T0 - 86_400_000);
    await db.insert(registrations).values(
      seeds.map((s) => ({
        deviceId: s.id,
        userId: s.user ?? 'nobody',
        role: 'teller',
        metadata: { role: 'teller', branch: 'north' },
        status: s.status ?? 'active',
        registeredAt: registered,
        associatedSince: registered,
        updatedAt: registered,
        deactivatedAt: s.status === 'deactivated' ? registered : null,
        deactivationReason: s.status === 'deactivated' ? 'closed branch' : null,
      })),
    );
    const seen = [...seeds.filter((s) => s.scores), ...SEEN_ONLY.map((id) => ({ id, scores: [0.42] }) as Seed)];
    await db.insert(devices).values(seen.map((s, i) => ({ id: `dev_${i}`, deviceId: s.id, firstSeen: at(-100), lastSeen: at(s.lastMinute ?? i) })));
    let n = 0;
    await db.insert(events).values(
      seen.flatMap((s, i) =>
        s.scores!.map((score, k) => ({
          id: `evt_${String(++n).padStart(6, '0')}`,
          keyId,
          name: 'login',
          deviceId: s.id,
          handprintId: 'hp_fixture',
          properties: {},
          tags: [`t${k}`],
          riskScore: score,
          response: {},
          // The last score is the latest event; the device's last_seen is that event's time.
          occurredAt: at((s.lastMinute ?? i) - (s.scores!.length - 1 - k)),
          receivedAt: at(i),
        })),
      ),
    );
  });
  afterAll(async () => server?.close());

  const api = (method: 'GET' | 'POST', path: string, body?: unknown, token = accounts.supervisor.token) => supervisorRequest(server, method, path, token, body);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = accounts.supervisor.token) => graphql(server, token, query, variables);
  const ids = (res: TestResponse) => res.body.devices.map((d: { device_id: string }) => d.device_id);

  /** Every device of a REST listing, page by page; also returns the longest cursor seen. */
  async function all(query: string, limit: number) {
    const out: string[] = [];
    let cursor: string | null = null;
    let longest = 0;
    do {
      const res = await api('GET', `/api/devices?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).toBe(200);
      out.push(...ids(res));
      cursor = res.body.next_cursor;
      longest = Math.max(longest, cursor?.length ?? 0);
    } while (cursor);
    return { ids: out, longest };
  }

  describe('prefix search', () => {
    it('takes %, _ and \\ literally, and is case-sensitive', async () => {
      const q = (p: string) => all(`id_prefix=${encodeURIComponent(p)}`, 50).then((r) => r.ids);
      expect(await q('shop%')).toEqual(['shop%1']);
      expect(await q('shop_')).toEqual(['shop_x']);
      expect(await q('shop\\')).toEqual(['shop\\z']);
      expect(await q('shop')).toEqual(['shop%1', 'shop-never-seen', 'shop-unreg', 'shopA', 'shop\\z', 'shop_x', 'shopping-1', 'shopping-2'].sort());
      expect(await q('SHOP')).toEqual(['SHOP-upper']);
      expect(await q('nothing-like-this')).toEqual([]);
      expect(await q('100%')).toEqual(['100%']);
    });

    it('combines with the registry filters and statuses (registered, seen-only, never seen)', async () => {
      expect((await all('id_prefix=shop&status=unregistered', 50)).ids).toEqual(['shop-unreg']);
      expect((await all('id_prefix=shop&status=deactivated', 50)).ids).toEqual(['shopping-2']);
      expect((await all('id_prefix=shop&user_id=ana', 50)).ids).toEqual(['shop%1', 'shop_x']);
    });

    it('searches user ids by prefix, literally', async () => {
      expect((await all(`user_id_prefix=${encodeURIComponent('ana%')}`, 50)).ids).toEqual(['shopping-1']);
      expect((await all('user_id_prefix=ana_', 50)).ids).toEqual(['shopping-2']);
      expect((await all('user_id_prefix=ana', 50)).ids).toEqual(['shop%1', 'shop_x', 'shopping-1', 'shopping-2'].sort());
      expect((await all('user_id_prefix=ana&status=unregistered', 50)).ids).toEqual([]);
    });

    it('works the same in GraphQL, with totalCount', async () => {
      const res = await gql('query($f: DeviceFilter) { devices(filter: $f) { totalCount nodes { id } } }', { f: { idPrefix: 'shop_' } });
      expect(res.body.data.devices).toEqual({ totalCount: 1, nodes: [{ id: 'shop_x' }] });
      const users = await gql('query($f: DeviceFilter) { devices(filter: $f) { totalCount } }', { f: { userIdPrefix: 'bru' } });
      expect(users.body.data.devices.totalCount).toBe(2);
    });

    it('refuses text PostgreSQL cannot store (400)', async () => {
      const res = await api('GET', `/api/devices?id_prefix=${encodeURIComponent('a\u0000')}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    });
  });

  describe('sorts', () => {
    const riskOf = (s: Seed) => s.scores?.at(-1) ?? null;
    const everything = () => [...seeds, ...SEEN_ONLY.map((id) => ({ id, scores: [0.42] }) as Seed)];
    const byKey = (key: (s: Seed) => number | null, dir: 1 | -1) => (a: Seed, b: Seed) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === null || kb === null) return ka === kb ? (a.id < b.id ? -1 : 1) : ka === null ? 1 : -1;
      return (ka - kb) * dir || (a.id < b.id ? -1 : 1);
    };

    it("by risk (the latest event's score), both ways, devices without events last, across small pages", async () => {
      const desc = everything()
        .sort(byKey(riskOf, -1))
        .map((s) => s.id);
      const asc = everything()
        .sort(byKey(riskOf, 1))
        .map((s) => s.id);
      const d = await all('sort=risk_desc', 4);
      const a = await all('sort=risk_asc', 7);
      // Compared in code-point order for ties, as PostgreSQL's C collation does; the test DB is created that way.
      expect(d.ids).toEqual(desc);
      expect(a.ids).toEqual(asc);
      expect(d.ids.at(-1)).toBe('shop-never-seen');
      expect(a.ids.at(-1)).toBe('shop-never-seen');
      // shop%1 scored 0.9 first and 0.2 last: its risk is 0.2.
      expect(d.ids.indexOf('shop%1')).toBeGreaterThan(d.ids.indexOf('shop_x'));
    });

    it('by last seen, oldest first, never-seen devices last', async () => {
      const { ids: got } = await all('sort=last_seen_asc&id_prefix=fleet', 6);
      const fleet = seeds.filter((s) => s.id.startsWith('fleet'));
      const expected = fleet.sort(byKey((s) => s.lastMinute!, 1)).map((s) => s.id);
      expect(got.filter((id) => id !== 'fleet-unreg')).toEqual(expected);
    });

    it('keeps cursors small however deep the page', async () => {
      const { longest } = await all('sort=risk_desc', 2);
      expect(longest).toBeLessThan(120);
    });

    it('refuses a cursor of another sort (400), in REST and GraphQL', async () => {
      const first = await api('GET', '/api/devices?sort=risk_desc&limit=2');
      const res = await api('GET', `/api/devices?sort=last_seen&limit=2&cursor=${first.body.next_cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('cursor');
      const g = await gql('query($a: String) { devices(sort: DEVICE_ID, after: $a) { nodes { id } } }', { a: first.body.next_cursor });
      expect(g.body.errors[0].extensions.code).toBe('validation_failed');
    });

    it('pages GraphQL by risk with the edge cursors, and answers riskScore', async () => {
      const seen: { id: string; riskScore: number | null }[] = [];
      let after: string | null = null;
      do {
        const res: TestResponse = await gql(
          'query($a: String) { devices(sort: RISK_DESC, first: 5, after: $a, filter: { idPrefix: "shop" }) { edges { cursor node { id riskScore } } pageInfo { hasNextPage endCursor } } }',
          { a: after },
        );
        const page = res.body.data.devices;
        seen.push(...page.edges.map((e: { node: { id: string; riskScore: number | null } }) => e.node));
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      } while (after);
      expect(seen.map((d) => d.riskScore)).toEqual([0.95, 0.7, 0.5, 0.42, 0.3, 0.2, 0.1, null]);
      const rest = await api('GET', '/api/devices?id_prefix=shopA');
      expect(rest.body.devices[0].risk_score).toBe(0.7);
    });
  });

  describe('bulk moves', () => {
    supervisorAuthCases(() => server, {
      method: 'POST',
      path: '/api/devices/deactivate',
      body: { device_ids: ['fleet-30'], reason: 'matrix', by: 'matrix' },
      permission: 'manage_devices',
    });
    supervisorAuthCases(() => server, {
      method: 'POST',
      path: '/api/devices/transfer',
      body: { device_ids: ['fleet-31'], new_user_id: 'matrix', by: 'matrix' },
      permission: 'manage_devices',
    });
    graphqlAuthCases(() => server, {
      name: 'mutation deactivateDevices',
      query: 'mutation { deactivateDevices(ids: ["fleet-32"], reason: "matrix") { outcome } }',
      permission: 'manage_devices',
    });
    graphqlAuthCases(() => server, {
      name: 'mutation transferDevices',
      query: 'mutation { transferDevices(ids: ["fleet-33"], newUserId: "matrix") { outcome } }',
      permission: 'manage_devices',
    });

    it('deactivates many, saying per device what happened; a repeat keeps the first reason and says so', async () => {
      const res = await api('POST', '/api/devices/deactivate', {
        device_ids: ['fleet-01', 'shopping-2', 'no-such-device', 'shop-unreg', 'fleet-01', 'fleet-02'],
        reason: 'branch closed',
        by: 'sup-maria',
      });
      expect(res.status, res.text).toBe(200);
      const results = res.body.results;
      expect(results.map((r: { device_id: string; outcome: string }) => [r.device_id, r.outcome])).toEqual([
        ['fleet-01', 'changed'],
        ['shopping-2', 'unchanged'],
        ['no-such-device', 'not_found'],
        ['shop-unreg', 'refused'],
        ['fleet-02', 'changed'],
      ]);
      expect(results[0].message).toBe('deactivated; reason "branch closed"');
      expect(results[0].device).toMatchObject({ device_id: 'fleet-01', status: 'deactivated', deactivation_reason: 'branch closed' });
      expect(results[1].message).toBe(
        `already deactivated since ${new Date(T0 - 86_400_000).toISOString()}; reason kept ("closed branch"), new reason not applied ("branch closed")`,
      );
      expect(results[1].device.deactivation_reason).toBe('closed branch');
      expect(results[2]).toMatchObject({ device: null, message: expect.stringMatching(/No device no-such-device/) });
      expect(results[3].message).toMatch(/not registered/);
      // Nothing is written for an unchanged device.
      const audit = await server.database.db.select().from(registryAudit).where(eq(registryAudit.deviceId, 'shopping-2'));
      expect(audit).toEqual([]);
    });

    it('transfers many: to the current user is unchanged, and says to whom', async () => {
      const res = await api('POST', '/api/devices/transfer', { device_ids: ['fleet-05', 'fleet-06'], new_user_id: 'u0', by: 'sup-maria' });
      expect(res.body.results).toEqual([
        { device_id: 'fleet-05', outcome: 'unchanged', message: 'already registered to u0', device: expect.objectContaining({ user_id: 'u0' }) },
        { device_id: 'fleet-06', outcome: 'changed', message: 'transferred from u1 to u0', device: expect.objectContaining({ user_id: 'u0' }) },
      ]);
    });

    it('in GraphQL, with the device as it is after the move', async () => {
      const res = await gql(
        'mutation($ids: [ID!]!) { transferDevices(ids: $ids, newUserId: "dora", by: "sup-1") { deviceId outcome message device { id registration { userId } } } }',
        { ids: ['fleet-07', 'missing-one', 'fleet-unreg'] },
      );
      expect(res.body.data.transferDevices).toEqual([
        { deviceId: 'fleet-07', outcome: 'CHANGED', message: 'transferred from u2 to dora', device: { id: 'fleet-07', registration: { userId: 'dora' } } },
        { deviceId: 'missing-one', outcome: 'NOT_FOUND', message: expect.any(String), device: null },
        { deviceId: 'fleet-unreg', outcome: 'REFUSED', message: expect.stringMatching(/not registered/), device: { id: 'fleet-unreg', registration: null } },
      ]);
      const again = await gql('mutation { deactivateDevices(ids: ["fleet-07", "fleet-07"], reason: "x") { outcome } }');
      expect(again.body.data.deactivateDevices).toEqual([{ outcome: 'CHANGED' }]);
    });

    it('refuses more than 500 ids with too_many_devices, and empty or invalid lists (400)', async () => {
      const many = Array.from({ length: 501 }, (_, i) => `d-${i}`);
      const rest = await api('POST', '/api/devices/deactivate', { device_ids: many, reason: 'x', by: 'y' });
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ code: 'too_many_devices', type: '/problems/too_many_devices' });
      const exactly500 = await api('POST', '/api/devices/transfer', { device_ids: many.slice(0, 500), new_user_id: 'x', by: 'y' });
      expect(exactly500.status).toBe(200);
      expect(exactly500.body.results).toHaveLength(500);
      const g = await gql('mutation($ids: [ID!]!) { deactivateDevices(ids: $ids, reason: "x") { outcome } }', { ids: many });
      expect(g.body.errors[0].extensions.code).toBe('too_many_devices');
      for (const body of [
        { device_ids: [], reason: 'x', by: 'y' },
        { device_ids: [''], reason: 'x', by: 'y' },
        { device_ids: ['a\u0000'], reason: 'x', by: 'y' },
        { device_ids: 'fleet-01', reason: 'x', by: 'y' },
        { device_ids: ['fleet-01'], by: 'y' },
        { device_ids: ['fleet-01'], reason: 'x', by: 'y', extra: 1 },
      ]) {
        const res = await api('POST', '/api/devices/deactivate', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('validation_failed');
      }
      const gEmpty = await gql('mutation { deactivateDevices(ids: [], reason: "x") { outcome } }');
      expect(gEmpty.body.errors[0].extensions.code).toBe('validation_failed');
    });
  });

  describe('single moves say what they changed', () => {
    it('REST: a second deactivation is unchanged and keeps the first reason', async () => {
      const first = await api('POST', '/api/devices/fleet-10/deactivate', { reason: 'lost', by: 'sup' });
      expect(first.body.change).toEqual({ changed: true, message: 'deactivated; reason "lost"' });
      const second = await api('POST', '/api/devices/fleet-10/deactivate', { reason: 'stolen', by: 'sup' });
      expect(second.status).toBe(200);
      expect(second.body.change.changed).toBe(false);
      expect(second.body.change.message).toBe(
        `already deactivated since ${first.body.deactivated_at}; reason kept ("lost"), new reason not applied ("stolen")`,
      );
      expect(second.body.deactivation_reason).toBe('lost');
      const transfer = await api('POST', '/api/devices/fleet-10/transfer', { new_user_id: 'u0', by: 'sup' });
      expect(transfer.body.change).toEqual({ changed: false, message: 'already registered to u0' });
    });

    it('GraphQL: Device.change on the answer, null on queries', async () => {
      const q = 'mutation($id: ID!) { transferDevice(deviceId: $id, newUserId: "u1") { id change { changed message } } }';
      const first = await gql(q, { id: 'fleet-11' });
      expect(first.body.data.transferDevice.change).toEqual({ changed: false, message: 'already registered to u1' });
      const moved = await gql('mutation { deactivateDevice(deviceId: "fleet-11", reason: "r1") { change { changed message } } }');
      expect(moved.body.data.deactivateDevice.change).toEqual({ changed: true, message: 'deactivated; reason "r1"' });
      const again = await gql('mutation { deactivateDevice(deviceId: "fleet-11", reason: "r2") { change { changed message } } }');
      expect(again.body.data.deactivateDevice.change.changed).toBe(false);
      expect(again.body.data.deactivateDevice.change.message).toMatch(/^already deactivated since .+; reason kept \("r1"\), new reason not applied \("r2"\)$/);
      const reactivated = await gql('mutation { reactivateDevice(deviceId: "fleet-12", reason: "back") { change { changed message } } }');
      expect(reactivated.body.data.reactivateDevice.change).toEqual({ changed: false, message: 'already active; reason not applied ("back")' });
      const read = await gql('{ device(id: "fleet-11") { change { changed } } }');
      expect(read.body.data.device.change).toBeNull();
    });
  });

  describe('any device id', () => {
    /** A request with the path exactly as written: WHATWG URL clients (fetch) resolve `.` and `..` segments. */
    const raw = (method: 'GET' | 'POST', path: string, body?: unknown) =>
      new Promise<TestResponse>((resolve, reject) => {
        const url = new URL(server.url);
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            method,
            path,
            headers: { authorization: `Bearer ${accounts.supervisor.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                headers: new Headers(res.headers as Record<string, string>),
                body: text ? JSON.parse(text) : undefined,
                text,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(body ? JSON.stringify(body) : undefined);
      });

    it.each(ODD_IDS.filter((id) => id !== 'export'))('%s opens and moves through its encoded REST path', async (id) => {
      const path = `/api/devices/${encodeURIComponent(id).replaceAll('.', '%2E')}`;
      const detail = await raw('GET', path);
      expect(detail.status, detail.text).toBe(200);
      expect(detail.body.device_id).toBe(id);
      const moved = await raw('POST', `${path}/transfer`, { new_user_id: `new-${id}`, by: 'sup' });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ device_id: id, user_id: `new-${id}`, change: { changed: true } });
    });

    it('a device named "export" is moved through REST (its detail is read in GraphQL: GET /api/devices/export is the export)', async () => {
      const res = await api('POST', '/api/devices/export/transfer', { new_user_id: 'exporter', by: 'sup' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ device_id: 'export', user_id: 'exporter' });
    });

    it.each(ODD_IDS)('%s opens and moves in GraphQL', async (id) => {
      const res = await gql('query($id: ID!) { device(id: $id) { id registration { userId } } }', { id });
      expect(res.body.data.device.id).toBe(id);
      const moved = await gql('mutation($id: ID!) { deactivateDevice(deviceId: $id, reason: "odd") { id status } }', { id });
      expect(moved.body.data.deactivateDevice).toEqual({ id, status: 'DEACTIVATED' });
    });

    it('a 128-character unicode id fits in a path', async () => {
      const id = '日'.repeat(128);
      await server.database.db.insert(devices).values({ id: 'dev_long', deviceId: id, firstSeen: at(0), lastSeen: at(0) });
      const res = await api('GET', `/api/devices/${encodeURIComponent(id)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.device_id).toBe(id);
    });
  });

  describe('export', () => {
    supervisorAuthCases(() => server, { method: 'GET', path: '/api/devices/export?format=ndjson&id_prefix=shop', permission: 'read' });

    const lines = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));

    it('streams every matching device as NDJSON, each with the cursor that resumes after it', async () => {
      const res = await api('GET', '/api/devices/export?format=ndjson&sort=risk_desc');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="devices.ndjson"');
      const rows = lines(res.text);
      const listed = await all('sort=risk_desc', 500);
      expect(rows.map((r) => r.device_id)).toEqual(listed.ids);
      expect(rows.find((r) => r.device_id === 'shopping-1')).toMatchObject({
        risk_score: 0.95,
        metadata: { role: 'teller', branch: 'north' },
        current_tags: ['t0'],
        cursor: expect.any(String),
      });
      const resumed = await api('GET', `/api/devices/export?format=ndjson&sort=risk_desc&after=${encodeURIComponent(rows[9].cursor)}`);
      expect(lines(resumed.text).map((r) => r.device_id)).toEqual(listed.ids.slice(10));
    });

    it('applies the filters, and an empty match is an empty body', async () => {
      const res = await api('GET', '/api/devices/export?format=ndjson&user_id_prefix=ana');
      expect(lines(res.text).map((r) => r.device_id)).toEqual(['shop%1', 'shop_x', 'shopping-1', 'shopping-2'].sort());
      const none = await api('GET', '/api/devices/export?format=csv&id_prefix=zzz');
      expect(none.status).toBe(200);
      expect(none.text).toBe(
        'device_id,user_id,role,metadata,status,registered_at,deactivated_at,deactivation_reason,first_seen,last_seen,handprint_id,current_tags,risk_score,model,os_version,cursor\r\n',
      );
    });

    it('writes CSV that a spreadsheet cannot run: formula-like cells start with a quote', async () => {
      const res = await api('GET', `/api/devices/export?format=csv&id_prefix=${encodeURIComponent('=')}`);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const [, row] = res.text.split('\r\n');
      expect(row!.startsWith(`'=cmd|calc,`)).toBe(true);
      expect(row).toContain(`"{""role"":""teller"",""branch"":""north""}"`);
      const neg = await api('GET', '/api/devices/export?format=csv&id_prefix=-neg');
      expect(neg.text.split('\r\n')[1]!.startsWith(`'-neg,`)).toBe(true);
    });

    it('pages through more devices than one read holds', async () => {
      const extra = Array.from({ length: 1200 }, (_, i) => `bulkexp-${String(i).padStart(4, '0')}`);
      for (let i = 0; i < extra.length; i += 400) {
        await server.database.db
          .insert(devices)
          .values(extra.slice(i, i + 400).map((id) => ({ id: `dev_${id}`, deviceId: id, firstSeen: at(0), lastSeen: at(0) })));
      }
      const res = await api('GET', '/api/devices/export?format=csv&id_prefix=bulkexp-');
      const rows = res.text.split('\r\n').filter(Boolean);
      expect(rows).toHaveLength(1201);
      expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(extra);
    });

    it('refuses a bad format, filter or cursor with a problem before streaming (400)', async () => {
      for (const query of ['format=xml', '', 'format=csv&after=garbage', 'format=csv&sort=name', 'format=csv&limit=5']) {
        const res = await api('GET', `/api/devices/export?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }
      const wrongSort = await api('GET', '/api/devices/export?format=ndjson&sort=risk_desc');
      const cursor = lines(wrongSort.text)[0].cursor;
      const res = await api('GET', `/api/devices/export?format=ndjson&sort=device_id&after=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('after');
    });
  });
});
