import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiText } from '../openapi.js';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';
import { databaseThreadGcs, groupCommits } from '../../test-support/metrics.js';

// Tests on PGlite alone run with the PGlite pass (all of them unless VIGIL_TEST_DRIVERS picks the PostgreSQL one).
const pglitePass = testDrivers().includes('pglite');

describe.each(testDrivers())('operations routes on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  it('reports liveness and readiness', async () => {
    expect((await server.get('/healthz', { key: null })).body).toEqual({ status: 'ok' });
    expect((await server.get('/readyz', { key: null })).body).toEqual({ status: 'ready', database: driver });
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const res = await server.get('/openapi.json', { key: null });
    expect(res.body.openapi).toBe('3.1.0');
    // Checked in like schema.graphql; regenerate with `pnpm --filter @vigil/server schema:openapi`.
    const checkedIn = readFileSync(fileURLToPath(new URL('../../../openapi.json', import.meta.url)), 'utf8');
    expect(openApiText(res.body), 'server/openapi.json is stale: run `pnpm --filter @vigil/server schema:openapi`').toBe(checkedIn);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/events', '/events/batch']));
    const event = res.body.components.schemas.Event;
    expect(event.required).toEqual(['event']);
    expect(event.properties.event.maxLength).toBe(200);
    expect(event.properties.identity).toBeDefined();
    const magic = res.body.components.schemas.MagicProperties.properties;
    expect(Object.keys(magic)).toEqual(
      expect.arrayContaining(['ip_address', 'ip', 'user_agent', 'device_id', 'session_id', 'email', 'phone', 'event_id', 'timestamp']),
    );
    expect(res.body.components.schemas.Insights.required).toEqual(
      expect.arrayContaining(['device_id', 'handprint_id', 'current_tags', 'risk_score', 'device_id_details', 'behaviors', 'device']),
    );
  });

  it('exposes Prometheus metrics: requests, latency, events ingested and by tag', async () => {
    await server.post('/events', { event: 'login', properties: { device_id: 'metrics-dev' } });
    const text = (await server.get('/metrics', { key: null })).text;
    expect(text).toMatch(/vigil_http_requests_total\{method="POST",route="\/events",status="200"\} \d+/);
    expect(text).toMatch(/vigil_http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/events"\}/);
    expect(text).toMatch(/vigil_events_ingested_total [1-9]/);
    expect(text).toMatch(/vigil_events_by_tag_total\{tag="new_device"\} [1-9]/);
  });

  it('exposes each group commit: how long it took and how many events it carried', async () => {
    const before = await groupCommits(server);
    const events = Array.from({ length: 3 }, (_, i) => ({ event: 'login', properties: { device_id: `commit-metrics-${i}` } }));
    expect((await server.post('/events/batch', { events })).status).toBe(200);
    const after = await groupCommits(server);
    // The batch's events may be committed together or apart, but every one of them in some commit.
    expect(after.events - before.events).toBe(3);
    expect(after.commits - before.commits).toBeGreaterThanOrEqual(1);
    expect(after.timed - before.timed).toBe(after.commits - before.commits);
    expect(after.seconds - before.seconds).toBeGreaterThan(0);
    expect((await server.get('/metrics', { key: null })).text).toMatch(/^vigil_group_commit_duration_seconds_bucket\{le="0.01"\} \d+$/m);
  });

  it('explains problem types', async () => {
    const res = await server.get('/problems/rate_limited', { key: null });
    expect(res.body).toMatchObject({ type: '/problems/rate_limited', status: 429 });
    expect((await server.get('/problems/nonsense', { key: null })).status).toBe(404);
    // Names every object has are not problem types (the fuzz suite found `__proto__` answered 200).
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect((await server.get(`/problems/${name}`, { key: null })).status, name).toBe(404);
    }
  });
});

describe.runIf(pglitePass)("the embedded database's thread in /metrics", () => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil('pglite');
  });
  afterAll(async () => server?.close());

  it("counts its garbage collections, which the main thread's GC metrics cannot see", async () => {
    const before = await databaseThreadGcs(server);
    // Every event's row passes through the thread's heap on its way to PostgreSQL: enough of them make it collect.
    const properties = { note: 'x'.repeat(2000) };
    const until = Date.now() + 30_000;
    for (let n = 0; (await databaseThreadGcs(server)) === before; ) {
      expect(Date.now(), 'no garbage collection of the database thread reached /metrics in 30 s').toBeLessThan(until);
      const events = Array.from({ length: 100 }, () => ({ event: 'login', properties: { ...properties, event_id: `gc-${n++}` } }));
      expect((await server.post('/events/batch', { events })).status).toBe(200);
    }
  });
});

describe.runIf(pglitePass)('per-key rate limit', () => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil('pglite', { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '3' });
  });
  afterAll(async () => server?.close());

  it('answers 429 with Retry-After above the limit, per key', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await server.post('/events', { event: 'x' })).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const limited = await server.post('/events', { event: 'x' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body.code).toBe('rate_limited');
    // Another key has its own bucket.
    const other = await server.vigil.keys.create('write', 'other');
    expect((await server.post('/events', { event: 'x' }, { key: other.key })).status).toBe(200);
  });
});

describe.runIf(pglitePass)('trusted proxies', () => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil('pglite', { VIGIL_TRUSTED_PROXIES: '127.0.0.1/32' });
  });
  afterAll(async () => server?.close());

  it('honours X-Forwarded-For from a trusted proxy', async () => {
    const res = await server.post('/events', { event: 'x' }, { headers: { 'x-forwarded-for': '192.0.2.55' } });
    const again = await server.post('/events', { event: 'x', properties: { ip_address: '192.0.2.55' } });
    // Same UA, language and network: the forwarded address was used for the handprint.
    expect(res.body.handprint_id).toBe(again.body.handprint_id);
  });
});

describe.runIf(pglitePass)('internal errors', () => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil('pglite');
  });
  afterAll(async () => server?.close());

  it('answer 503 without internals when the database fails mid-request', async () => {
    // A real failure: the database is closed under the running server.
    await server.database.close();
    const res = await server.post('/events', { event: 'x' });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.text).not.toMatch(/pglite|PGlite|stack|at .*\.js/);
    expect((await server.get('/readyz', { key: null })).status).toBe(503);
  });
});
