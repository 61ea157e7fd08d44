import { eq, inArray, sql } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectBody } from '../test-support/browser-readings.js';
import { surfaceDrivers, testDrivers } from '../test-support/databases.js';
import { request, startTestVigil, type TestResponse, type TestVigil } from '../test-support/harness.js';
import { supervisorAccounts, supervisorRequest } from '../test-support/supervisors.js';
import { unstorable } from '../db/safe-text.js';
import { toVigilError } from './problem.js';

/** Strings PostgreSQL refuses: NUL anywhere, and lone surrogates (jsonb refuses them, text would mangle them). */
const BAD: Record<string, string> = {
  NUL: 'a\u0000b',
  'a lone high surrogate': 'a\ud800b',
  'a lone low surrogate': '\udc00',
};
const bads = Object.entries(BAD);

/** JSON text nested `n` arrays deep, written by hand: JSON.stringify itself overflows the stack on it. */
const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
const DEEP = deep(5000);

const SHOP = 'https://shop.example';

function expectProblem(res: TestResponse, status: number, code: string, path?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: `/problems/${code}` });
  if (path !== undefined) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe.each(surfaceDrivers())('hostile input on %s', (driver) => {
  let server: TestVigil;
  let token: string;
  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_JS_ALLOWED_ORIGINS: SHOP, VIGIL_JS_COLLECT_RPS: '0', VIGIL_JS_EVENTS_RPS: '0' });
    token = (await supervisorAccounts(server)).supervisor.token;
    await server.post('/devices/dev-hostile/register', { user_id: 'ana', metadata: { role: 'teller' } }, { key: server.clientKey });
  });
  afterAll(async () => server?.close());

  const eventCount = async () => {
    const [row] = await server.database.db.select({ n: sql<number>`count(*)::int` }).from(events);
    return row!.n;
  };
  const api = (method: 'GET' | 'POST', path: string, body?: unknown) => supervisorRequest(server, method, path, token, body);
  const js = (path: string, body: unknown) =>
    request(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  describe.each(bads)('%s', (_name, bad) => {
    it('in any string of POST /events is a 400 naming the field, and nothing is stored', async () => {
      const before = await eventCount();
      const cases: [unknown, string][] = [
        [{ event: bad }, 'event'],
        [{ event: 'x', identity: bad }, 'identity'],
        [{ event: 'x', properties: { [bad]: 1 } }, 'properties'],
        [{ event: 'x', properties: { a: { b: [1, bad] } } }, 'properties.a.b.1'],
        [{ event: 'x', properties: { a: { [bad]: 'v' } } }, 'properties.a'],
        [{ event: 'x', properties: { device_signals: { automation: { [bad]: true, x: bad } } } }, 'properties.device_signals.automation'],
        [{ event: 'x', properties: { device_signals: { automation: { x: bad } } } }, 'properties.device_signals.automation.x'],
      ];
      for (const magic of [
        'ip_address',
        'ip',
        'user_agent',
        'device_id',
        'session_id',
        'email',
        'phone',
        'event_id',
        'device_model',
        'os_version',
        'browser_token',
      ]) {
        cases.push([{ event: 'x', properties: { [magic]: bad } }, `properties.${magic}`]);
      }
      for (const [body, path] of cases) expectProblem(await server.post('/events', body), 400, 'validation_failed', path);
      expect(await eventCount()).toBe(before);
    });

    it('in one batch item fails that item only: the others in the same group commit are stored', async () => {
      const good = (n: number) => ({ event: 'hostile-batch', properties: { n, note: 'café ☕ 𝄞' } });
      const res = await server.post('/events/batch', {
        events: [good(1), { event: 'x', properties: { k: bad } }, { event: bad }, good(2), { event: 'x', properties: { [bad]: 1 } }, good(3)],
      });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 400, 400, 200, 400, 200]);
      expect(res.body.results[1].error.errors[0].path).toBe('events.1.properties.k');
      const ids = res.body.results.filter((r: { status: number }) => r.status === 200).map((r: { insights: { event_id: string } }) => r.insights.event_id);
      const rows = await server.database.db.select().from(events).where(inArray(events.id, ids));
      expect(rows.map((r) => r.properties).sort((a, b) => (a as { n: number }).n - (b as { n: number }).n)).toEqual(
        [good(1), good(2), good(3)].map((g) => g.properties),
      );
    });

    it('in a /api/devices query filter, path id or body is a 400', async () => {
      if (bad.isWellFormed()) {
        const q = encodeURIComponent(bad);
        for (const filter of ['role', 'branch', 'user_id', 'tag']) {
          expectProblem(await api('GET', `/api/devices?${filter}=${q}`), 400, 'validation_failed', filter);
        }
        expectProblem(await api('GET', `/api/devices/${q}`), 400, 'validation_failed', 'device_id');
        for (const move of ['deactivate', 'transfer', 'reactivate']) {
          const body = move === 'transfer' ? { new_user_id: 'bo', by: 'sup' } : { reason: 'r', by: 'sup' };
          expectProblem(await api('POST', `/api/devices/${q}/${move}`, body), 400, 'validation_failed', 'device_id');
        }
      }
      const cursor = Buffer.from(JSON.stringify([null, bad])).toString('base64url');
      expectProblem(await api('GET', `/api/devices?cursor=${cursor}`), 400, 'validation_failed', 'cursor');
      expectProblem(await api('POST', '/api/devices/dev-hostile/deactivate', { reason: bad, by: 'sup' }), 400, 'validation_failed', 'reason');
      expectProblem(await api('POST', '/api/devices/dev-hostile/deactivate', { reason: 'r', by: bad }), 400, 'validation_failed', 'by');
      expectProblem(await api('POST', '/api/devices/dev-hostile/transfer', { new_user_id: bad, by: 'sup' }), 400, 'validation_failed', 'new_user_id');
      expectProblem(await api('POST', '/api/devices/dev-hostile/reactivate', { reason: bad, by: 'sup' }), 400, 'validation_failed', 'reason');
    });

    it('in a /devices path id or body is a 400', async () => {
      const key = { key: server.clientKey };
      if (bad.isWellFormed()) {
        const q = encodeURIComponent(bad);
        expectProblem(await server.post(`/devices/${q}/register`, { user_id: 'ana' }, key), 400, 'validation_failed', 'device_id');
        expectProblem(await server.get(`/devices/${q}/registration`, key), 400, 'validation_failed', 'device_id');
        expectProblem(await server.post(`/devices/${q}/deactivate`, { reason: 'r' }, key), 400, 'validation_failed', 'device_id');
      }
      const register = (body: unknown) => server.post('/devices/dev-hostile-2/register', body, key);
      expectProblem(await register({ user_id: bad }), 400, 'validation_failed', 'user_id');
      expectProblem(await register({ user_id: 'ana', metadata: { role: bad } }), 400, 'validation_failed', 'metadata.role');
      expectProblem(await register({ user_id: 'ana', metadata: { [bad]: 'x' } }), 400, 'validation_failed', 'metadata');
      expectProblem(await register({ user_id: 'ana', metadata: { a: { b: [bad] } } }), 400, 'validation_failed', 'metadata.a.b.0');
      expectProblem(await server.post('/devices/dev-hostile/deactivate', { reason: bad }, key), 400, 'validation_failed', 'reason');
    });

    it('in a login is a 400', async () => {
      expectProblem(
        await server.post('/api/auth/login', { username: bad, password: 'whatever-password' }, { key: null }),
        400,
        'validation_failed',
        'username',
      );
    });

    it('in /js/collect is a 400 and in a /js/events item fails that item only', async () => {
      const device = `web_hostile${Math.random().toString(36).slice(2, 10)}`;
      const body = collectBody(device) as { components: Record<string, { value: Record<string, unknown> }> };
      body.components.timezone!.value.name = bad;
      expectProblem(await js('/js/collect', body), 400, 'validation_failed', 'components.timezone.value.name');
      expectProblem(await js('/js/collect', collectBody(device, {}, { identity: bad })), 400, 'validation_failed', 'identity');
      expectProblem(
        await js('/js/collect', collectBody(device, {}, { device_signals: { automation: { x: bad } } })),
        400,
        'validation_failed',
        'device_signals.automation.x',
      );
      expect((await js('/js/collect', collectBody(device))).status).toBe(200);

      const item = (i: number, extra: Record<string, unknown> = {}) => ({
        event: 'page',
        event_id: `wev_${device}_${i}`,
        timestamp: new Date().toISOString(),
        ...extra,
      });
      const res = await js('/js/events', {
        version: 1,
        device_id: device,
        events: [item(1), item(2, { event: bad }), item(3, { identity: bad }), item(4, { properties: { k: bad } }), item(5, { event_id: bad }), item(6)],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 400, 400, 400, 400, 200]);
      expect(res.body.results[3].error.errors[0].path).toBe('events.3.properties.k');
      const stored = await server.database.db.select().from(events).where(eq(events.id, res.body.results[5].event_id));
      expect(stored).toHaveLength(1);
    });
  });

  describe('deep nesting and node counts', () => {
    it('answers a batch item nested 5,000 arrays deep with a per-item 400, and stores the rest', async () => {
      const good = JSON.stringify({ event: 'deep-neighbour' });
      const res = await server.post(
        '/events/batch',
        `{"events":[${good},${DEEP},{"event":"x","properties":{"a":${DEEP}}},{"event":"x","properties":{"device_signals":{"a":${DEEP}}}},${good}]}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 400, 400, 400, 200]);
      expect(res.body.results[1].error.code).toBe('validation_failed');
      expect(res.body.results[2].error.errors[0]).toEqual({ path: 'events.2.properties.a.0.0.0.0', message: 'nesting deeper than 5 levels' });
    });

    it('answers bodies nested 5,000 levels deep on every JSON route with a 400', async () => {
      const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
      expectProblem(await server.post('/events', DEEP), 400, 'validation_failed');
      expectProblem(await server.post('/events', `{"event":"x","properties":{"a":${deepObject}}}`), 400, 'validation_failed', 'properties.a.a.a.a.a');
      expectProblem(await server.post('/events/batch', DEEP), 400, 'validation_failed');
      expectProblem(
        await server.post('/devices/dev-deep/register', `{"user_id":"u","metadata":{"a":${DEEP}}}`, { key: server.clientKey }),
        400,
        'validation_failed',
        'metadata.a.0.0',
      );
      expectProblem(await server.post('/api/auth/login', `{"username":${DEEP},"password":"x"}`, { key: null }), 400, 'validation_failed', 'username');
      const deactivate = await request(`${server.url}/api/devices/dev-hostile/deactivate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: `{"reason":${DEEP},"by":"sup"}`,
      });
      expectProblem(deactivate, 400, 'validation_failed', 'reason');
      const collect = JSON.stringify(collectBody('web_deep_device_1')).replace('"pixel_ratio":{"value":1.25', `"pixel_ratio":{"value":${DEEP}`);
      expectProblem(await js('/js/collect', collect), 400, 'validation_failed', 'components.pixel_ratio.value');
      const signals = JSON.stringify(collectBody('web_deep_device_1')).replace(/}$/, `,"device_signals":{"a":${DEEP}}}`);
      expectProblem(await js('/js/collect', signals), 400, 'validation_failed', 'device_signals');
      const page = `{"version":1,"device_id":"web_deep_device_1","events":[{"event":"x","event_id":"wev_deep","timestamp":"${new Date().toISOString()}","properties":{"a":${DEEP}}}]}`;
      const res = await js('/js/events', page);
      expect(res.status, res.text).toBe(200);
      expect(res.body.results[0].status).toBe(400);
    });

    it('refuses properties and metadata over the key count, wherever the keys are', async () => {
      const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
      const res = await server.post('/events', { event: 'x', properties: { a: wide, b: { c: wide } } });
      expectProblem(res, 400, 'validation_failed', 'properties');
      expect(res.body.detail).toContain('more than 200 keys');
      const metadata = { a: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) };
      expectProblem(
        await server.post('/devices/dev-wide/register', { user_id: 'u', metadata }, { key: server.clientKey }),
        400,
        'validation_failed',
        'metadata',
      );
      // Exactly at the limits is accepted.
      const ok = await server.post('/events', {
        event: 'x',
        properties: { a: Object.fromEntries(Array.from({ length: 199 }, (_, i) => [`k${i}`, [i, [i]]])) },
      });
      expect(ok.status, ok.text).toBe(200);
    });
  });

  describe('URLs Fastify cannot route', () => {
    it('answers bad percent-encoding and over-long path ids as problems', async () => {
      expectProblem(await api('GET', '/api/devices/%ED%A0%80'), 400, 'validation_failed');
      expectProblem(await api('GET', '/api/devices/a%zzb'), 400, 'validation_failed');
      expectProblem(await api('GET', `/api/devices/${'d'.repeat(600)}`), 400, 'validation_failed');
      expectProblem(await api('GET', `/api/devices/${'d'.repeat(200)}`), 400, 'validation_failed', 'device_id');
    });

    it('never answers a 5xx for encoded surrogates or odd numbers in a query', async () => {
      for (const query of [
        'role=%ED%A0%80',
        'role=%F0%9F',
        'tag=%C0%80',
        'limit=1e400',
        'cursor=%00',
        `cursor=${Buffer.from('[1e400,"x"]').toString('base64url')}`,
      ]) {
        const res = await api('GET', `/api/devices?${query}`);
        expect(res.status, `${query}: ${res.text}`).toBeLessThan(500);
      }
    });
  });
});

// Which text the database takes is the driver's own (PGlite is PostgreSQL compiled to WebAssembly, with its own
// client and error path), so these run on both.
describe.each(testDrivers())('text the database stores or refuses on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  it('stores any text PostgreSQL accepts exactly as received, and refuses only the rest, item by item', async () => {
    // Any code point, plus the ones PostgreSQL refuses (NUL, both kinds of lone surrogate), often enough to meet.
    const unit = fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d', '\ufffe', '\uffff', '\u0001') },
    );
    const text = fc.string({ unit, maxLength: 12 });
    const item = fc.record({ key: text, value: text, inner: text });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 5 }), async (items) => {
        const sent = items.map(({ key, value, inner }) => ({ event: 'pbt', properties: { [`p_${key}`]: value, nested: { list: [inner] } } }));
        const res = await server.post('/events/batch', { events: sent });
        expect(res.status, res.text).toBe(200);
        for (const [i, { key, value, inner }] of items.entries()) {
          const result = res.body.results[i];
          const storable = [key, value, inner].every((s) => !unstorable(s));
          expect(result.status, JSON.stringify(result)).toBe(storable ? 200 : 400);
          if (!storable) continue;
          const [row] = await server.database.db.select().from(events).where(eq(events.id, result.insights.event_id));
          expect(row!.properties).toEqual(sent[i]!.properties);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('maps PostgreSQL refusing text to a 400 (the backstop behind edge validation)', async () => {
    const refusal = (query: ReturnType<typeof sql>) =>
      server.database.db.execute(query).then(
        () => undefined,
        (error: unknown) => error,
      );
    for (const refused of [await refusal(sql`SELECT ${'a\u0000b'}::text AS t`), await refusal(sql`SELECT ${'"\\ud800"'}::jsonb AS j`)]) {
      expect(refused).toBeDefined();
      expect(toVigilError(refused).error.status).toBe(400);
    }
  });
});
