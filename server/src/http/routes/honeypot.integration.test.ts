import { eq } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../../behaviors/test-config.js';
import { testDrivers } from '../../test-support/databases.js';
import { request, startTestVigil, type TestVigil } from '../../test-support/harness.js';

const fixtures = fileURLToPath(new URL('../../../test-fixtures/intel/', import.meta.url));

/** A body exactly as honeypot-py 0.2.19 builds it for `hp.with_request(request).identify(...).track(...)`. */
const honeypotBody = (over: Record<string, unknown> = {}) => ({
  event_name: 'login',
  timestamp: new Date().toISOString().replace('Z', '+00:00'),
  user_id: 'hp-user@example.com',
  client_version: 'honeypot-py/0.2.19',
  async: false,
  ip_address: '192.0.2.10',
  event_properties: { plan: 'gold', email: '' },
  user_agent: 'Mozilla/5.0 (HoneypotTest)',
  browser_token: '',
  device_id: 'hp-dev-1',
  anonymous_id: '',
  path: '/login',
  method: 'POST',
  orig_request_params: { next: '/home?token=secret-query' },
  orig_request_body: { username: 'hp-user', password: 'hunter2' },
  orig_request_headers: { Cookie: 'session=secret-cookie', Authorization: 'Basic c2VjcmV0' },
  ...over,
});

describe.each(testDrivers())('POST /events in the Honeypot SDK shape on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    const config = writeConfig({
      intel: { tor_exit_list: join(fixtures, 'tor-bulk-exit-list.txt') },
      behaviors: [{ name: 'logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['login'] }],
    });
    server = await startTestVigil(driver, { VIGIL_CONFIG: config });
  });
  afterAll(async () => server?.close());

  /** The way the SDK sends its key: X-API-Key and X-API-Secret, no Authorization header. */
  const sdkPost = (body: unknown, key: string | null = server.writeKey, extra: Record<string, string> = {}) =>
    request(`${server.url}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key, 'x-api-secret': 'ignored' } : {}), ...extra },
      body: JSON.stringify(body),
    });

  it('accepts X-API-Key, answers under honey with tags, score and dynamic_features, and maps the event', async () => {
    const res = await sdkPost(honeypotBody());
    expect(res.status, res.text).toBe(200);
    const honey = res.body.honey;
    expect(Object.keys(res.body)).toEqual(['honey']);
    expect(honey.current_tags).toContain('tor');
    expect(honey.risk_score).toBeGreaterThanOrEqual(0.8);
    expect(honey.device_id).toBe('hp-dev-1');
    expect(honey.event_id).toMatch(/^evt_/);
    expect(honey.dynamic_features).toEqual(honey.behaviors);
    expect(honey.dynamic_features.logins_1h).toMatchObject({ count: 1 });

    const [row] = await server.database.db.select().from(events).where(eq(events.deviceId, 'hp-dev-1'));
    expect(row).toMatchObject({ name: 'login', identity: 'hp-user@example.com', ip: '192.0.2.10', userAgent: 'Mozilla/5.0 (HoneypotTest)' });
    expect(row!.properties).toEqual({
      plan: 'gold',
      ip_address: '192.0.2.10',
      user_agent: 'Mozilla/5.0 (HoneypotTest)',
      device_id: 'hp-dev-1',
      request_path: '/login',
      request_method: 'POST',
      timestamp: expect.any(String),
    });
  });

  it("never stores the original request headers, body or query (they carry end users' credentials)", async () => {
    await sdkPost(honeypotBody({ device_id: 'hp-dev-secrets' }));
    const rows = await server.database.db.select().from(events);
    const stored = JSON.stringify(rows);
    for (const secret of ['secret-cookie', 'hunter2', 'c2VjcmV0', 'secret-query', 'orig_request']) {
      expect(stored).not.toContain(secret);
    }
  });

  it('lets event_properties win over the top-level fields and counts behaviours per user_id', async () => {
    const body = honeypotBody({ device_id: 'hp-dev-2', event_properties: { ip_address: '203.0.113.50', device_id: 'hp-dev-3' } });
    const res = await sdkPost(body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.honey.device_id).toBe('hp-dev-3');
    expect(res.body.honey.current_tags).not.toContain('tor');
    expect(res.body.honey.dynamic_features.logins_1h.count).toBeGreaterThanOrEqual(2);
  });

  it('accepts the minimal body the SDK sends without a request (empty and null fields are "unknown")', async () => {
    const res = await sdkPost({
      event_name: 'signup',
      timestamp: new Date().toISOString(),
      user_id: null,
      client_version: 'honeypot-py/0.2.19',
      async: true,
      ip_address: '',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.honey.current_tags).toEqual(expect.any(Array));
  });

  it('answers the Vigil shape to a Vigil body, whichever key header carried the key', async () => {
    const res = await sdkPost({ event: 'login', properties: { device_id: 'hp-dev-vigil' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.honey).toBeUndefined();
    expect(res.body.device_id).toBe('hp-dev-vigil');
  });

  it('refuses a bad Honeypot body with a 400 naming the field', async () => {
    const res = await sdkPost(honeypotBody({ event_name: '' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('event_name');
  });

  it('takes only write keys in X-API-Key, only on POST /events', async () => {
    expect((await sdkPost(honeypotBody(), null)).status).toBe(401);
    expect((await sdkPost(honeypotBody(), 'vigil_wk_unknown')).status).toBe(401);
    expect((await sdkPost(honeypotBody(), server.clientKey)).status).toBe(403);
    const batch = await request(`${server.url}/events/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': server.writeKey },
      body: JSON.stringify({ events: [{ event: 'login' }] }),
    });
    expect(batch.status).toBe(401);
  });

  it('lets Authorization: Bearer win over X-API-Key', async () => {
    const res = await sdkPost(honeypotBody({ device_id: 'hp-dev-bearer' }), 'vigil_wk_unknown', { authorization: `Bearer ${server.writeKey}` });
    expect(res.status, res.text).toBe(200);
  });
});
