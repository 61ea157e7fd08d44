import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '@vigil/drizzle/schema';
import { signBrowserToken } from '../../handprint/token/sign.js';
import { DbReplayCounter } from '../../handprint/replay-counter.js';
import { collectBody } from '../../test-support/browser-readings.js';
import { createTestDatabase, surfaceDrivers, type TestDatabase } from '../../test-support/databases.js';
import { request, startTestVigil, type TestVigil } from '../../test-support/harness.js';

const SHOP = 'https://shop.example';
const SECRET = 'test-secret-that-is-long-enough-for-hmac-0123456789';
const ENV = {
  VIGIL_JS_ALLOWED_ORIGINS: `${SHOP},https://*.partner.example`,
  VIGIL_JS_TOKEN_SECRETS: `t1:${SECRET}`,
  VIGIL_JS_TOKEN_MAX_USES: '3',
  VIGIL_JS_COLLECT_RPS: '0',
  VIGIL_JS_EVENTS_RPS: '0',
};

let n = 0;
const deviceId = () => `web_test${Date.now().toString(36)}${(n++).toString(36)}xx`;

describe.each(surfaceDrivers())('/js endpoints on %s', (driver) => {
  let server: TestVigil;
  const js = (path: string, body: unknown, headers: Record<string, string> = { origin: SHOP }) =>
    request(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const collect = async (device = deviceId(), extra: Record<string, unknown> = {}) => {
    const res = await js('/js/collect', collectBody(device, {}, extra));
    expect(res.status).toBe(200);
    return res.body as { handprint_id: string; device_id: string; browser_token: string; confidence: number; is_new_handprint: boolean; expires_at: string };
  };
  const stored = async (eventId: string) => {
    const [row] = await server.database.db.select().from(events).where(eq(events.id, eventId));
    return row!;
  };

  beforeAll(async () => {
    server = await startTestVigil(driver, ENV);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('GET /js', () => {
    it('serves the library with short caching, an ETag and the versioned file as canonical link', async () => {
      const res = await fetch(`${server.url}/js?v=ignored`);
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('etag')).toMatch(/^"sha384-/);
      expect(res.headers.get('link')).toMatch(/^<\/js\/vigil\.\d+\.\d+\.\d+\.[0-9a-f]{10}\.min\.js>; rel="canonical"$/);
      expect(text).toContain('Vigil');
      const again = await fetch(`${server.url}/js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
    });

    it('serves the versioned file with immutable caching and 404s unknown files as problem+json', async () => {
      const link = (await fetch(`${server.url}/js`)).headers.get('link')!;
      const path = /<([^>]+)>/.exec(link)![1]!;
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const missing = await server.get('/js/vigil.0.0.1.deadbeef00.min.js', { key: null });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });
  });

  it('is described in the OpenAPI document', async () => {
    const res = await server.get('/openapi.json', { key: null });
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/js', '/js/{file}', '/js/collect', '/js/events']));
    expect(res.body.components.schemas.MagicProperties.properties).toHaveProperty('browser_token');
  });

  describe('CORS and credentials', () => {
    it('answers a preflight from an allowed origin (exact or subdomain wildcard) and refuses others', async () => {
      for (const origin of [SHOP, 'https://eu.partner.example']) {
        const res = await request(`${server.url}/js/collect`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('access-control-allow-methods')).toContain('POST');
        expect(res.headers.get('vary')).toContain('Origin');
      }
      const refused = await request(`${server.url}/js/events`, { method: 'OPTIONS', headers: { origin: 'https://partner.example' } });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('refuses a page from a non-allowed origin without CORS headers', async () => {
      const res = await js('/js/collect', collectBody(deviceId()), { origin: 'https://evil.example' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'origin_not_allowed', type: '/problems/origin_not_allowed' });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect((await js('/js/collect', collectBody(deviceId()), {})).status).toBe(403);
    });

    it('refuses a write key with 403 even from an allowed origin', async () => {
      for (const path of ['/js/collect', '/js/events']) {
        const res = await js(path, collectBody(deviceId()), { origin: SHOP, authorization: `Bearer ${server.writeKey}` });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('write_key_not_allowed');
        expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
      }
    });

    it('accepts an optional client key (then without an allowed origin) and refuses malformed or unknown keys', async () => {
      const ok = await js('/js/collect', collectBody(deviceId()), { authorization: `Bearer ${server.clientKey}` });
      expect(ok.status).toBe(200);
      for (const authorization of ['Basic abc', 'Bearer vigil_ck_ThisKeyDoesNotExist0000000000', 'Bearer something']) {
        const res = await js('/js/collect', collectBody(deviceId()), { origin: SHOP, authorization });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('unauthorized');
      }
    });
  });

  describe('bad payloads are problem+json the page can read', () => {
    it('413 for an oversized body, 400 for invalid JSON, 415 for another content type', async () => {
      const big = await js('/js/collect', { ...collectBody(deviceId()), padding: 'x'.repeat(40 * 1024) });
      expect(big.status).toBe(413);
      expect(big.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(big.headers.get('access-control-allow-origin')).toBe(SHOP);
      const events = await js('/js/events', { version: 1, device_id: deviceId(), events: [{ event: 'x', properties: { p: 'x'.repeat(70 * 1024) } }] });
      expect(events.status).toBe(413);
      const broken = await js('/js/events', '{"version":1,');
      expect(broken.status).toBe(400);
      expect(broken.body.code).toBe('invalid_json');
      expect(broken.headers.get('access-control-allow-origin')).toBe(SHOP);
      const text = await request(`${server.url}/js/collect`, { method: 'POST', headers: { origin: SHOP, 'content-type': 'text/plain' }, body: '{}' });
      expect(text.status).toBe(415);
    });

    it('400 validation_failed with field paths for a malformed reading or batch', async () => {
      const res = await js('/js/collect', { version: 2, device_id: 'short', components: [] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['version', 'device_id', 'components']));
      const batch = await js('/js/events', { version: 1, device_id: deviceId(), events: [] });
      expect(batch.status).toBe(400);
      expect(batch.body.code).toBe('validation_failed');
    });

    it('tolerates unknown components and malformed values', async () => {
      const body = collectBody(deviceId());
      (body.components as Record<string, unknown>).brand_new_source = { value: { anything: [1, 2, 3] }, ms: 2 };
      (body.components as Record<string, unknown>).screen = { value: 'not an object', ms: 1 };
      const res = await js('/js/collect', body);
      expect(res.status).toBe(200);
      expect(res.body.handprint_id).toMatch(/^hp_[a-z2-7]{26}$/);
    });
  });

  describe('POST /js/collect', () => {
    it('gives a handprint, the device_id back, a confidence and a signed token, but no risk data', async () => {
      const device = deviceId();
      const body = await collect(device);
      expect(body).toMatchObject({ device_id: device, handprint_id: expect.stringMatching(/^hp_/), browser_token: expect.stringMatching(/^vbt1\./) });
      expect(body.confidence).toBeGreaterThan(0);
      // VIGIL_JS_TOKEN_TTL_SECONDS (default 600 s).
      const left = Date.parse(body.expires_at) - Date.now();
      expect(left).toBeGreaterThan(590_000);
      expect(left).toBeLessThanOrEqual(601_000);
      expect(Object.keys(body)).not.toContain('risk_score');
      expect(Object.keys(body)).not.toContain('current_tags');
    });

    it('gives concurrent first visits of one browser a single handprint', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => js('/js/collect', collectBody(deviceId(), { timezone: 'Pacific/Auckland', cores: 6 }))),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(new Set(answers.map((a) => a.body.handprint_id)).size).toBe(1);
    });

    it('forgets token uses once the token has expired', async () => {
      const now = Date.now();
      const counter = new DbReplayCounter(server.database, () => now + 3600_000);
      expect(await counter.use(`jti-${now}`, now + 1000)).toBe(1);
      expect(await counter.use(`jti-${now}`, now + 1000)).toBe(2);
      expect(await counter.prune()).toBeGreaterThanOrEqual(1);
      expect(await counter.use(`jti-${now}`, now + 1000)).toBe(1);
    });

    it('recognises the same browser with a new device_id, and a different machine as different', async () => {
      const first = await collect();
      const second = await collect();
      expect(second.handprint_id).toBe(first.handprint_id);
      expect(second.is_new_handprint).toBe(false);
      const other = await js('/js/collect', collectBody(deviceId(), { timezone: 'America/New_York', cores: 4 }));
      expect(other.body.handprint_id).not.toBe(first.handprint_id);
    });
  });

  describe('browser_token on POST /events', () => {
    it('links the backend event to the browser handprint and device, and passes on its device_signals', async () => {
      const signals = { version: 1, platform: 'web', automation: { webdriver: true, evidence: ['webdriver'] } };
      const browser = await collect(deviceId(), { device_signals: signals });
      const res = await server.post('/events', { event: 'login', identity: 'user-42', properties: { browser_token: browser.browser_token } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ handprint_id: browser.handprint_id, device_id: browser.device_id, warnings: [] });
      const row = await stored(res.body.event_id);
      expect(row.handprintId).toBe(browser.handprint_id);
      expect(row.deviceId).toBe(browser.device_id);
      expect(row.properties.device_signals).toEqual(signals);
    });

    it("keeps the caller's device_id and warns when it differs from the browser's", async () => {
      const browser = await collect();
      const res = await server.post('/events', { event: 'login', properties: { browser_token: browser.browser_token, device_id: 'other-device' } });
      expect(res.body.device_id).toBe('other-device');
      expect(res.body.handprint_id).toBe(browser.handprint_id);
      expect(res.body.warnings.map((w: { code: string }) => w.code)).toEqual(['browser_token_device_mismatch']);
    });

    it('refuses forged, altered, unknown-key and expired tokens in warnings and still stores the event', async () => {
      const browser = await collect();
      const [prefix, payload, signature] = browser.browser_token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const altered = `${prefix}.${Buffer.from(JSON.stringify({ ...claims, hp: 'hp_aaaaaaaaaaaaaaaaaaaaaaaaaa' })).toString('base64url')}.${signature}`;
      const sign = (kid: string, secret: string, now: number) =>
        signBrowserToken(
          { handprint_id: browser.handprint_id, device_id: browser.device_id, confidence: 0.9, origin: SHOP },
          { keys: { current: { kid, secret } }, now, randomBytes: (k) => randomBytes(k) },
        ).token;
      const cases: [string, string][] = [
        ['not-a-token', 'browser_token_malformed'],
        [altered, 'browser_token_bad_signature'],
        [sign('t1', 'another-secret-that-is-long-enough-0123456789', Date.now()), 'browser_token_bad_signature'],
        [sign('zz', SECRET, Date.now()), 'browser_token_unknown_key'],
        [sign('t1', SECRET, Date.now() - 2 * 3600 * 1000), 'browser_token_expired'],
      ];
      for (const [token, code] of cases) {
        const res = await server.post('/events', { event: 'login', properties: { browser_token: token } });
        expect(res.status).toBe(200);
        expect(res.body.warnings.map((w: { code: string }) => w.code)).toEqual([code]);
        expect(res.body.handprint_id).not.toBe(browser.handprint_id);
        expect((await stored(res.body.event_id)).name).toBe('login');
      }
    });

    it('refuses a token replayed more often than VIGIL_JS_TOKEN_MAX_USES', async () => {
      const browser = await collect();
      const codes: string[][] = [];
      for (let i = 0; i < 5; i++) {
        const res = await server.post('/events', { event: 'transfer', properties: { browser_token: browser.browser_token } });
        codes.push(res.body.warnings.map((w: { code: string }) => w.code));
      }
      expect(codes).toEqual([[], [], [], ['browser_token_replayed'], ['browser_token_replayed']]);
    });

    it('answers a browser_token that is not a string with 400', async () => {
      const res = await server.post('/events', { event: 'login', properties: { browser_token: 42 } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('properties.browser_token');
    });
  });

  describe('POST /js/events', () => {
    it("stores the page's events through normal ingestion with the browser's handprint, never answering insights", async () => {
      const signals = { version: 1, platform: 'web', automation: { headless_ua: true, evidence: ['headless_ua'] } };
      const browser = await collect(deviceId(), { device_signals: signals });
      const res = await js('/js/events', {
        version: 1,
        device_id: browser.device_id,
        browser_token: browser.browser_token,
        events: [
          {
            event: 'add_to_cart',
            identity: 'user-7',
            properties: { sku: 'A-1', ip_address: '6.6.6.6' },
            event_id: 'e1-' + browser.device_id,
            timestamp: new Date().toISOString(),
          },
          { event: '', event_id: 'e2-' + browser.device_id, timestamp: new Date().toISOString() },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.results[0]).toEqual({ status: 200, event_id: expect.stringMatching(/^evt_/) });
      expect(res.body.results[1].status).toBe(400);
      const row = await stored(res.body.results[0].event_id);
      expect(row).toMatchObject({ name: 'add_to_cart', identity: 'user-7', deviceId: browser.device_id, handprintId: browser.handprint_id, ip: '127.0.0.1' });
      expect(row.properties.browser_token).toBeUndefined();
      expect(row.properties.device_signals).toEqual(signals);
      // The same event again (a retry) is stored once.
      const retry = await js('/js/events', {
        version: 1,
        device_id: browser.device_id,
        events: [{ event: 'add_to_cart', event_id: 'e1-' + browser.device_id, timestamp: new Date().toISOString() }],
      });
      expect(retry.body.results[0].event_id).toBe(res.body.results[0].event_id);
    });

    it('keeps the events of a page whose token is forged, linked by its device_id', async () => {
      const browser = await collect();
      const res = await js('/js/events', {
        version: 1,
        device_id: browser.device_id,
        browser_token: 'vbt1.forged.token',
        events: [{ event: 'view', event_id: 'f1-' + browser.device_id, timestamp: new Date().toISOString() }],
      });
      expect(res.status).toBe(200);
      expect(res.body.warnings[0].code).toBe('browser_token_malformed');
      expect((await stored(res.body.results[0].event_id)).handprintId).toBe(browser.handprint_id);
    });
  });
});

describe.each(surfaceDrivers())('/js rate limits on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_JS_ALLOWED_ORIGINS: SHOP, VIGIL_JS_COLLECT_RPS: '1', VIGIL_JS_COLLECT_BURST: '2' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 with Retry-After, readable by the page, above the per-IP burst', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof request>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(`${server.url}/js/collect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP },
        body: JSON.stringify(collectBody(deviceId())),
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses[3]).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(last!.body.code).toBe('rate_limited');
  });
});

describe.each(surfaceDrivers())('generated browser_token key on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is generated on the first start and kept in the database, so tokens survive a restart', async () => {
    const env = { VIGIL_JS_ALLOWED_ORIGINS: SHOP };
    const first = await startTestVigil(driver, env, db);
    const res = await request(`${first.url}/js/collect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP },
      body: JSON.stringify(collectBody(deviceId())),
    });
    await first.close();
    const second = await startTestVigil(driver, env, db);
    try {
      const linked = await second.post('/events', { event: 'login', properties: { browser_token: res.body.browser_token } });
      expect(linked.body.warnings).toEqual([]);
      expect(linked.body.handprint_id).toBe(res.body.handprint_id);
    } finally {
      await second.close();
    }
    // Keys configured later sign new tokens; the generated key keeps verifying the tokens already out there.
    const third = await startTestVigil(driver, { ...env, VIGIL_JS_TOKEN_SECRETS: `conf1:${SECRET}` }, db);
    try {
      const linked = await third.post('/events', { event: 'login', properties: { browser_token: res.body.browser_token } });
      expect(linked.body.warnings).toEqual([]);
      const fresh = await request(`${third.url}/js/collect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP },
        body: JSON.stringify(collectBody(deviceId())),
      });
      expect(fresh.body.handprint_id).toBe(res.body.handprint_id);
      const claims = JSON.parse(Buffer.from(fresh.body.browser_token.split('.')[1], 'base64url').toString());
      expect(claims.kid).toBe('conf1');
    } finally {
      await third.close();
    }
  });
});

// Several processes share token use counts only through PostgreSQL: whenever the run has it, in the one pass that
// runs this file's surface tests (on either surface driver).
if (process.env.VIGIL_TEST_DATABASE_URL && surfaceDrivers().length > 0) {
  describe('several Vigil processes on one PostgreSQL', () => {
    let db: TestDatabase;
    let a: TestVigil;
    let b: TestVigil;
    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      a = await startTestVigil('postgres', { VIGIL_JS_ALLOWED_ORIGINS: SHOP, VIGIL_JS_TOKEN_MAX_USES: '2' }, db);
      b = await startTestVigil('postgres', { VIGIL_JS_ALLOWED_ORIGINS: SHOP, VIGIL_JS_TOKEN_MAX_USES: '2' }, db);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await db?.drop();
    });

    it('share the generated key, the handprint profiles and the replay count', async () => {
      const res = await request(`${a.url}/js/collect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP },
        body: JSON.stringify(collectBody(deviceId())),
      });
      const again = await request(`${b.url}/js/collect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP },
        body: JSON.stringify(collectBody(deviceId())),
      });
      expect(again.body.handprint_id).toBe(res.body.handprint_id);
      const token = res.body.browser_token;
      const uses = [];
      for (const server of [b, a, b]) {
        const linked = await server.post('/events', { event: 'login', properties: { browser_token: token } });
        uses.push(linked.body.warnings.map((w: { code: string }) => w.code));
      }
      expect(uses).toEqual([[], [], ['browser_token_replayed']]);
    });
  });
}
