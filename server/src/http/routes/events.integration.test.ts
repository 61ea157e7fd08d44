import { and, eq, sql } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authCases } from '../../test-support/auth-cases.js';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDrivers())('POST /events on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  const count = async (where = sql`true`) => {
    const [row] = await server.database.db.select({ n: sql<number>`count(*)::int` }).from(events).where(where);
    return row!.n;
  };

  authCases(() => server, { method: 'POST', path: '/events', body: { event: 'login' }, accepts: ['write'] });

  it('answers every documented insight field and stores the event before answering', async () => {
    const res = await server.post(
      '/events',
      { event: 'login', identity: 'ana@example.com', properties: { device_id: 'dev-a', amount: 12.5, session_id: 's1' } },
      { headers: { 'user-agent': 'TestAgent/1.0', 'accept-language': 'pt-PT,pt;q=0.9' } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = res.body;
    expect(body).toMatchObject({
      device_id: 'dev-a',
      // dev-a was never registered (see the registry suites for registered devices).
      current_tags: ['new_device', 'unregistered'],
      device_id_details: { age: { days: 0 } },
      behaviors: {},
      warnings: [],
      device: {
        is_registered: false,
        is_trusted: false,
        registered_to: null,
        registered_at: null,
        role: null,
        metadata: {},
        age_days: 0,
        is_new: true,
        model: null,
        os_version: null,
        status: 'unregistered',
      },
    });
    expect(body.event_id).toMatch(/^evt_/);
    expect(body.handprint_id).toMatch(/^hp_/);
    expect(body.risk_score).toBeGreaterThan(0);
    expect(body.risk_score).toBeLessThanOrEqual(1);
    expect(body.score_breakdown[0]).toEqual({ tag: 'new_device', weight: 0.15, contribution: 0.15 });
    expect(body.score_breakdown.map((b: { tag: string }) => b.tag)).toEqual(['new_device', 'unregistered']);

    const [row] = await server.database.db.select().from(events).where(eq(events.id, body.event_id));
    expect(row).toMatchObject({
      name: 'login',
      identity: 'ana@example.com',
      deviceId: 'dev-a',
      sessionId: 's1',
      handprintId: body.handprint_id,
      ip: '127.0.0.1',
      userAgent: 'TestAgent/1.0',
      tags: ['new_device', 'unregistered'],
      riskScore: body.risk_score,
    });
    expect(row!.properties).toEqual({ device_id: 'dev-a', amount: 12.5, session_id: 's1' });
    // The stored answer is what an idempotent retry replays: it must be the answer that was sent.
    expect(row!.response).toEqual(body);
    expect(row!.occurredAt).toBeInstanceOf(Date);
    expect(row!.receivedAt).toBeInstanceOf(Date);
  });

  it('dates a device from its first event and drops new_device after 24 hours', async () => {
    const first = new Date(Date.now() - 3 * DAY - 60_000).toISOString();
    const old = await server.post('/events', { event: 'open', properties: { device_id: 'dev-old', timestamp: first } });
    expect(old.body.current_tags).toContain('new_device');
    const now = await server.post('/events', { event: 'login', properties: { device_id: 'dev-old', device_model: 'Pixel 8', os_version: '15' } });
    expect(now.body.device_id_details.age.days).toBe(3);
    expect(now.body.device).toMatchObject({ age_days: 3, is_new: false, model: 'Pixel 8', os_version: '15' });
    expect(now.body.current_tags).not.toContain('new_device');
    // Only `unregistered` remains.
    expect(now.body.risk_score).toBe(0.1);
  });

  it('moves first seen earlier when a late offline event arrives', async () => {
    const now = await server.post('/events', { event: 'login', properties: { device_id: 'dev-late' } });
    expect(now.body.device_id_details.age.days).toBe(0);
    const offline = new Date(Date.now() - 2 * DAY - 60_000).toISOString();
    const late = await server.post('/events', { event: 'transfer', properties: { device_id: 'dev-late', timestamp: offline } });
    expect(late.status).toBe(200);
    const after = await server.post('/events', { event: 'login', properties: { device_id: 'dev-late' } });
    expect(after.body.device_id_details.age.days).toBe(2);
    expect(after.body.current_tags).not.toContain('new_device');
  });

  it('gives the same handprint for the same signals and another for different ones', async () => {
    const send = (ua: string) => server.post('/events', { event: 'view', properties: { user_agent: ua, ip_address: '198.51.100.20' } });
    const a = await send('Agent/A');
    const b = await send('Agent/A');
    const c = await send('Agent/B');
    expect(a.body.handprint_id).toBe(b.body.handprint_id);
    expect(c.body.handprint_id).not.toBe(a.body.handprint_id);
  });

  it('uses ip_address when given and reports an invalid one as a warning', async () => {
    const good = await server.post('/events', { event: 'x', properties: { ip_address: '::ffff:203.0.113.9' } });
    const [row] = await server.database.db.select().from(events).where(eq(events.id, good.body.event_id));
    expect(row!.ip).toBe('203.0.113.9');
    const bad = await server.post('/events', { event: 'x', properties: { ip: 'not-an-ip' } });
    expect(bad.status).toBe(200);
    expect(bad.body.warnings).toEqual([expect.objectContaining({ code: 'invalid_ip_address' })]);
  });

  it('ignores X-Forwarded-For from a proxy that is not trusted', async () => {
    const res = await server.post('/events', { event: 'x' }, { headers: { 'x-forwarded-for': '192.0.2.55' } });
    const [row] = await server.database.db.select().from(events).where(eq(events.id, res.body.event_id));
    expect(row!.ip).toBe('127.0.0.1');
  });

  describe('idempotency', () => {
    it('answers a repeated event_id with the first response and stores it once', async () => {
      const body = { event: 'transfer', properties: { event_id: 'idem-1', device_id: 'dev-i', amount: 10 } };
      const first = await server.post('/events', body);
      const again = await server.post('/events', body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await count(eq(events.idempotencyKey, 'idem-1'))).toBe(1);
    });

    it('treats the Idempotency-Key header like event_id', async () => {
      const headers = { 'idempotency-key': 'idem-header' };
      const first = await server.post('/events', { event: 'a' }, { headers });
      const again = await server.post('/events', { event: 'a' }, { headers });
      expect(again.body.event_id).toBe(first.body.event_id);
      expect(await count(eq(events.idempotencyKey, 'idem-header'))).toBe(1);
    });

    it('counts concurrent retries of one event once', async () => {
      const body = { event: 'login', properties: { event_id: 'idem-race' } };
      const answers = await Promise.all(Array.from({ length: 20 }, () => server.post('/events', body)));
      expect(new Set(answers.map((a) => a.body.event_id)).size).toBe(1);
      expect(await count(eq(events.idempotencyKey, 'idem-race'))).toBe(1);
    });

    it('scopes idempotency to the key', async () => {
      const other = await server.vigil.keys.create('write', 'other');
      const body = { event: 'login', properties: { event_id: 'idem-scoped' } };
      const a = await server.post('/events', body);
      const b = await server.post('/events', body, { key: other.key });
      expect(b.body.event_id).not.toBe(a.body.event_id);
    });

    it('refuses a header that disagrees with event_id', async () => {
      const res = await server.post('/events', { event: 'a', properties: { event_id: 'one' } }, { headers: { 'idempotency-key': 'two' } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('properties.event_id');
    });
  });

  describe('bad input is a clear problem, never a 5xx, never stored', () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]));
    const cases: [string, unknown, string][] = [
      ['missing event', { identity: 'x' }, 'event'],
      ['empty event', { event: '' }, 'event'],
      ['event over 200 characters', { event: 'e'.repeat(201) }, 'event'],
      ['identity over 256 characters', { event: 'e', identity: 'i'.repeat(257) }, 'identity'],
      ['event not a string', { event: 42 }, 'event'],
      ['properties not an object', { event: 'e', properties: [1, 2] }, 'properties'],
      ['properties nested 6 levels', { event: 'e', properties: deep }, 'properties.a.b.c.d.e'],
      ['more than 200 property keys', { event: 'e', properties: many }, 'properties'],
      ['a NUL character', { event: 'e', properties: { note: 'a\u0000b' } }, 'properties.note'],
      ['a lone surrogate', { event: 'e\ud800' }, 'event'],
      ['an unknown top-level field', { event: 'e', propertise: {} }, '(body)'],
      ['a device_id that is not a string', { event: 'e', properties: { device_id: 7 } }, 'properties.device_id'],
      ['a timestamp that is not ISO 8601', { event: 'e', properties: { timestamp: 'yesterday' } }, 'properties.timestamp'],
      ['a timestamp 10 minutes in the future', { event: 'e', properties: { timestamp: new Date(Date.now() + 600_000).toISOString() } }, 'properties.timestamp'],
      ['a timestamp before 2000', { event: 'e', properties: { timestamp: '1999-12-31T23:59:59Z' } }, 'properties.timestamp'],
      ['a body that is not an object', [1, 2, 3], '(body)'],
    ];
    for (const [what, body, path] of cases) {
      it(`400 for ${what}`, async () => {
        const before = await count();
        const res = await server.post('/events', body);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ type: '/problems/validation_failed', title: expect.any(String), status: 400, code: 'validation_failed' });
        expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
        expect(await count()).toBe(before);
      });
    }

    it('400 for malformed JSON', async () => {
      const res = await server.post('/events', '{"event": ');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_json');
    });

    it('400 for a prototype-poisoning body', async () => {
      const res = await server.post('/events', '{"event":"e","__proto__":{"x":1}}');
      expect(res.status).toBe(400);
    });

    it('413 for a body over 64 KiB', async () => {
      const res = await server.post('/events', { event: 'e', properties: { blob: 'x'.repeat(70_000) } });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
    });

    it('415 when the body is not JSON', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await server.post('/events', 'event=e', { headers: { 'content-type': type } });
        expect(res.status).toBe(415);
        expect(res.body.code).toBe('unsupported_media_type');
      }
    });

    it('404 for an unknown route and 405 with Allow for a wrong method', async () => {
      const missing = await server.get('/nope');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
      const wrong = await server.get('/events');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      expect(wrong.body.code).toBe('method_not_allowed');
    });
  });
});

describe.each(testDrivers())('POST /events/batch on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  authCases(() => server, { method: 'POST', path: '/events/batch', body: { events: [{ event: 'x' }] }, accepts: ['write', 'client'] });

  it('answers each item in order, invalid items with their own problem', async () => {
    const res = await server.post('/events/batch', {
      events: [{ event: 'one' }, { nope: true }, { event: 'three', properties: { device_id: 'b-dev' } }],
    });
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.results;
    expect(a.status).toBe(200);
    expect(a.insights.event_id).toMatch(/^evt_/);
    expect(b.status).toBe(400);
    expect(b.error.errors[0].path).toMatch(/^events\.1/);
    expect(c.insights.device_id).toBe('b-dev');
  });

  it('stores duplicates of one event_id within a batch once', async () => {
    const item = { event: 'sync', properties: { event_id: 'batch-dup' } };
    const res = await server.post('/events/batch', { events: [item, item, item] });
    const ids = res.body.results.map((r: { insights: { event_id: string } }) => r.insights.event_id);
    expect(new Set(ids).size).toBe(1);
    const [row] = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(and(eq(events.idempotencyKey, 'batch-dup')));
    expect(row!.n).toBe(1);
  });

  it("corrects timestamps by the sender's clock error: the batch's sent_at, or an event's own", async () => {
    const hour = 3_600_000;
    const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();
    // Both senders' clocks are an hour fast; the events happened about ten seconds before the send.
    const res = await server.post('/events/batch', {
      sent_at: ahead(hour),
      events: [
        { event: 'skewed', properties: { event_id: 'skew-batch', timestamp: ahead(hour - 10_000) } },
        { event: 'skewed', properties: { event_id: 'skew-own', timestamp: ahead(2 * hour - 10_000) }, sent_at: ahead(2 * hour) },
      ],
    });
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    const rows = await server.database.db.select().from(events).where(eq(events.name, 'skewed'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Math.abs(row.occurredAt.getTime() - (Date.now() - 10_000))).toBeLessThan(60_000);
    // Without sent_at the same hour-ahead timestamp is refused, as before.
    const plain = await server.post('/events', { event: 'skewed', properties: { timestamp: ahead(hour) } });
    expect(plain.status).toBe(400);
  });

  it('refuses more than 100 events or an empty batch', async () => {
    const big = await server.post('/events/batch', { events: Array.from({ length: 101 }, () => ({ event: 'x' })) });
    expect(big.status).toBe(400);
    const empty = await server.post('/events/batch', { events: [] });
    expect(empty.status).toBe(400);
  });

  it('answers an item over 64 KiB with 413 in its own result', async () => {
    const res = await server.post('/events/batch', { events: [{ event: 'x', properties: { blob: 'x'.repeat(70_000) } }, { event: 'ok' }] });
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([413, 200]);
  });

  it('keeps a client key from claiming another IP', async () => {
    const res = await server.post('/events/batch', { events: [{ event: 'x', properties: { ip_address: '8.8.8.8' } }] }, { key: server.clientKey });
    const insights = res.body.results[0].insights;
    expect(insights.warnings).toEqual([expect.objectContaining({ code: 'ip_address_ignored' })]);
    const [row] = await server.database.db.select().from(events).where(eq(events.id, insights.event_id));
    expect(row!.ip).toBe('127.0.0.1');
  });
});
