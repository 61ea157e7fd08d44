import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { request, startTestVigil, type TestResponse, type TestVigil } from '../test-support/harness.js';
import { limits } from '../ingest/limits.js';

function expectProblem(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code });
}

describe.each(testDrivers())('gzip request bodies on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  const post = (path: string, body: Buffer, encoding: string, key = server.clientKey) =>
    request(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding, authorization: `Bearer ${key}` },
      body,
    });
  const batch = (ids: string[]) =>
    Buffer.from(JSON.stringify({ events: ids.map((id) => ({ event: 'login', identity: 'ana', properties: { event_id: id } })) }));

  it('a gzipped batch is stored as the same batch sent plain', async () => {
    const res = await post('/events/batch', gzipSync(batch(['gz-1', 'gz-2'])), 'gzip');
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    // The same events again, plain: answered from their event ids, so the gzipped ones were stored as themselves.
    const again = await post('/events/batch', batch(['gz-1', 'gz-2']), 'identity');
    expect(again.body.results.map((r: { insights: { event_id: string } }) => r.insights.event_id)).toEqual(
      res.body.results.map((r: { insights: { event_id: string } }) => r.insights.event_id),
    );
  });

  it('a gzipped single event is accepted on POST /events', async () => {
    const body = gzipSync(Buffer.from(JSON.stringify({ event: 'login', identity: 'ana', properties: { event_id: 'gz-single' } })));
    const res = await post('/events', body, 'gzip', server.writeKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body.event_id).toMatch(/^evt_/);
  });

  it('a zip bomb is a 413 once its output passes the body limit, however small it is on the wire', async () => {
    const bomb = gzipSync(Buffer.alloc(limits.batchBodyBytes * 20, 0x20));
    expect(bomb.length).toBeLessThan(limits.batchBodyBytes / 10);
    expectProblem(await post('/events/batch', bomb, 'gzip'), 413, 'payload_too_large');
  });

  it('a body that is not gzip is a 400', async () => {
    expectProblem(await post('/events/batch', batch(['gz-bad']), 'gzip'), 400, 'validation_failed');
    const truncated = gzipSync(batch(['gz-cut'])).subarray(0, 20);
    expectProblem(await post('/events/batch', truncated, 'gzip'), 400, 'validation_failed');
  });

  it('another encoding is a 415', async () => {
    expectProblem(await post('/events/batch', batch(['gz-br']), 'br'), 415, 'unsupported_media_type');
  });
});
