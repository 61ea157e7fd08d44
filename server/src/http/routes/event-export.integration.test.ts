import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { apiKeys } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorAuthCases } from '../../test-support/auth-cases.js';
import { testDrivers } from '../../test-support/databases.js';
import { request, startTestVigil, type TestVigil } from '../../test-support/harness.js';
import { supervisorAccounts, type TestAccount } from '../../test-support/supervisors.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Line = { cursor: string; id: string; name: string; identity: string | null; user_id: string | null; insights: { risk_score: number } };

describe.each(testDrivers())('GET /api/events/export on %s', (driver) => {
  let server: TestVigil;
  let viewer: TestAccount;
  const get = (query: string) => request(`${server.url}/api/events/export?${query}`, { headers: { authorization: `Bearer ${viewer.token}` } });
  const ndjson = async (query: string): Promise<Line[]> => {
    const res = await get(query);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    return res.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  };
  const post = async (body: Record<string, unknown>) => expect((await server.post('/events', body)).status).toBe(200);

  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_REPORTING_SETTLE_MS: '0' });
    viewer = (await supervisorAccounts(server)).viewer;
    await server.post('/devices/exp-a/register', { user_id: 'ana', metadata: { role: 'teller', branch: 'harbour' } }, { key: server.clientKey });
    for (let i = 0; i < 12; i++)
      await post({ event: 'export', identity: `e${String(i).padStart(2, '0')}`, properties: { device_id: i % 2 ? 'exp-a' : 'exp-b' } });
  });
  afterAll(async () => server?.close());

  supervisorAuthCases(() => server, { method: 'GET', path: '/api/events/export?event=export', permission: 'read' });

  it('streams matching events as NDJSON in received order, with the registration at the time and the full insights', async () => {
    const lines = await ndjson('event=export');
    expect(lines.map((l) => l.identity)).toEqual(Array.from({ length: 12 }, (_, i) => `e${String(i).padStart(2, '0')}`));
    const ana = await ndjson('event=export&user_id=ana&branch=harbour&role=teller');
    expect(ana.map((l) => l.identity)).toEqual(['e01', 'e03', 'e05', 'e07', 'e09', 'e11']);
    expect(ana[0]).toMatchObject({ name: 'export', user_id: 'ana', insights: { device: { registered_to: 'ana' } } });
    expect(typeof ana[0]!.insights.risk_score).toBe('number');
  });

  it('resumes after any cursor without gap or repeat, and a late offline event comes after what was read', async () => {
    const all = await ndjson('event=export');
    for (const k of [0, 5, 10, 11]) {
      const rest = await ndjson(`event=export&after=${encodeURIComponent(all[k]!.cursor)}`);
      expect(rest.map((l) => l.id)).toEqual(all.slice(k + 1).map((l) => l.id));
    }
    await post({ event: 'export', identity: 'offline', properties: { timestamp: '2021-05-05T00:00:00Z' } });
    const next = await ndjson(`event=export&after=${encodeURIComponent(all.at(-1)!.cursor)}`);
    expect(next.map((l) => l.identity)).toEqual(['offline']);
    const csv = await get(`event=export&format=csv&after=${encodeURIComponent(all.at(-1)!.cursor)}`);
    const rows = parseCsv(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.identity)).toEqual(['offline']);
    const resumed = await ndjson(`event=export&after=${encodeURIComponent(rows[0]!.cursor!)}`);
    expect(resumed).toEqual([]);
  });

  it('writes CSV a spreadsheet cannot be tricked by: quotes, line breaks, and formula-leading text prefixed', async () => {
    const hostile = ['=HYPERLINK("http://evil","click")', '+1+1', '-2+3', '@SUM(A1)', 'say "hi",\nthen\r\nleave'];
    for (const identity of hostile) await post({ event: 'csv', identity, properties: { note: 'a "quoted",\nmultiline note' } });
    const res = await get('event=csv&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="events.csv"');
    expect(res.text.split('\r\n')[0]).toBe(
      'id,received_at,occurred_at,name,identity,device_id,handprint_id,session_id,ip,user_agent,tags,risk_score,user_id,role,branch,properties,behaviors,cursor',
    );
    const rows = parseCsv(res.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.identity)).toEqual(['\'=HYPERLINK("http://evil","click")', "'+1+1", "'-2+3", "'@SUM(A1)", 'say "hi",\nthen\r\nleave']);
    expect(JSON.parse(rows[0]!.properties!)).toEqual({ note: 'a "quoted",\nmultiline note' });
    for (const row of rows) expect(Number(row.risk_score)).toBeGreaterThanOrEqual(0);
  });

  it('answers bad parameters and foreign cursors with a 400 problem, before streaming anything', async () => {
    for (const [query, path] of [
      ['format=xml', 'format'],
      ['from=yesterday', 'from'],
      ['to=0000-06-01T00:00:00Z', 'to'],
      [`after=${Buffer.from(JSON.stringify(['r', '9'.repeat(19), 'evt_x'])).toString('base64url')}`, 'after'],
      ['min_score=high', 'min_score'],
      ['time_field=sent', 'time_field'],
      ['colour=red', ''],
      ['after=bm90LWEtY3Vyc29y', 'after'],
      ['user_id=a%00b', 'user_id'],
    ]) {
      const res = await get(query!);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
      if (path)
        expect(
          res.body.errors.map((e: { path: string }) => e.path),
          query,
        ).toContain(path);
    }
  });

  it('streams 25,000 events (over 60 MB) in constant memory: the heap grows by far less than what was sent', { timeout: 300_000 }, async () => {
    const [key] = await server.database.db.select({ id: apiKeys.id }).from(apiKeys).limit(1);
    const keyId = key!.id;
    // Fewer, larger rows than a real export's: the bytes that prove constant memory, for a quarter of the rows' CPU.
    const padding = 'x'.repeat(2400);
    await server.database.db.execute(sql`
      INSERT INTO events (id, key_id, name, identity, device_id, handprint_id, properties, tags, risk_score, response, occurred_at, received_at)
      SELECT 'evt_bulk_' || lpad(g::text, 6, '0'), ${keyId}, 'bulk', 'u' || (g % 1000), 'd' || (g % 5000), 'hp' || (g % 5000),
             jsonb_build_object('n', g, 'pad', ${padding}::text), '{}'::text[], 0.1,
             jsonb_build_object('event_id', 'evt_bulk_' || g, 'risk_score', 0.1, 'device', jsonb_build_object('registered_to', null, 'metadata', '{}'::jsonb)),
             now() - interval '1 day', now() - (200000 - g) * interval '1 millisecond'
      FROM generate_series(1, 25000) AS g`);
    // As autovacuum would on PostgreSQL: without statistics the planner sorts every remaining row for each page.
    await server.database.db.execute(sql`ANALYZE events`);
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    const res = await fetch(`${server.url}/api/events/export?event=bulk`, { headers: { authorization: `Bearer ${viewer.token}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let bytes = 0;
    let lines = 0;
    let sampledAt = 0;
    let last = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const b of value) if (b === 10) lines++;
      last = Buffer.from(value.subarray(Math.max(0, value.byteLength - 400))).toString('utf8');
      if (bytes - sampledAt > 8 * 1024 * 1024) {
        sampledAt = bytes;
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      }
    }
    expect(lines).toBe(25_000);
    expect(last).toMatch(/"event_id":"evt_bulk_25000"/);
    expect(bytes).toBeGreaterThan(60 * 1024 * 1024);
    // Buffering the export (server or client side) would hold at least `bytes`; pages of 1,000 rows hold ~1 MB.
    expect(peak).toBeLessThan(Math.min(32 * 1024 * 1024, bytes / 4));
  });
});
