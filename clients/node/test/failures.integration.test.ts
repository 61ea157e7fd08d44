import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport } from '../src/transport/fetch.js';
import { freePort, startVigil, type RunningVigil } from './start-vigil.js';
import { collectingClient } from './support/collect.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';
import { waitFor } from './support/wait.js';

let server: RunningVigil;
const proxies: RecordingProxy[] = [];

beforeAll(async () => {
  server = await startVigil();
});

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await server?.stop();
});

async function proxy(options: Omit<Parameters<typeof startProxy>[0], 'target'> = {}): Promise<RecordingProxy> {
  const started = await startProxy({ target: server.url, ...options });
  proxies.push(started);
  return started;
}

describe('service down (nothing listening)', () => {
  it('trackAsync resolves with the fail-open result and reports a network error', async () => {
    const { client, errors } = collectingClient(`http://127.0.0.1:${await freePort()}`, server.writeKey, { minRetryDelay: 10_000 });
    const insights = await client.trackAsync('login', { device_id: 'dev-down' });
    expect(insights).toMatchObject({ failOpen: true, risk_score: 0, current_tags: [], device_id: 'dev-down' });
    expect(insights.error?.code).toBe('network');
    expect(errors.map((e) => e.code)).toEqual(['network']);
    // Kept for later delivery; closing while the service is still down gives it up, reported.
    expect(await client.close({ timeout: 100 })).toEqual({ flushed: false, dropped: 1 });
    expect(errors.at(-1)).toMatchObject({ code: 'closed' });
  });

  it('track keeps retrying a service that does not answer (no answer is no attempt); close() reports what is left', async () => {
    let sends = 0;
    const transport = fetchTransport();
    const { client, errors } = collectingClient(`http://127.0.0.1:${await freePort()}`, server.writeKey, {
      // One attempt would give the event up at the first failure if failures without an answer counted.
      maxAttempts: 1,
      minRetryDelay: 10,
      maxRetryDelay: 20,
      flushInterval: 10,
      transport: { send: (request) => (sends++, transport.send(request)) },
    });
    expect(() => client.track('login', { event_id: 'down-1' })).not.toThrow();
    await waitFor(() => sends >= 3, 'three sends to the dead address');
    expect(errors).toEqual([]);
    expect(client.queued).toBe(1);
    expect(await client.close({ timeout: 100 })).toEqual({ flushed: false, dropped: 1 });
    expect(errors.map((e) => e.code)).toEqual(['closed']);
    expect(errors[0]!.dropped.map((e) => e.properties.event_id)).toEqual(['down-1']);
  });
});

describe('service slow (a delaying proxy in front of the real server)', () => {
  it('trackAsync fails open at its timeout; the event is still stored once, later', async () => {
    const slow = await proxy({ delayMs: 1500 });
    const { client, errors } = collectingClient(slow.url, server.writeKey, { timeout: 200 });
    const insights = await client.trackAsync('login', { event_id: 'slow-1' });
    expect(insights.failOpen).toBe(true);
    expect(insights.error?.code).toBe('timeout');
    expect(errors.map((e) => e.code)).toEqual(['timeout']);

    // Requeued with the same idempotency key and delivered by the batch path.
    await client.flush();
    const [item] = deliveredBatchItems(slow.exchanges).filter((x) => x.event.properties.event_id === 'slow-1');
    expect(item?.result.status).toBe(200);
    // The original (slow) request reached Vigil too: both answers name the same stored event.
    await waitFor(() => slow.exchanges.some((x) => x.path === '/events'), 'the slow POST /events');
    const single = slow.exchanges.find((x) => x.path === '/events')!;
    expect(single.status).toBe(200);
    expect(item!.result.insights.event_id).toBe(single.response.event_id);
    await client.close();
  });
});

describe('5xx and 429 from a real HTTP server', () => {
  it('retries 503 until the service recovers; nothing is lost or reported', async () => {
    const flaky = await proxy({ intercept: ({ index }) => (index < 2 ? { status: 503, body: { status: 503, title: 'down' } } : undefined) });
    const { client, errors } = collectingClient(flaky.url, server.writeKey, { minRetryDelay: 20 });
    for (let i = 0; i < 3; i++) client.track('view', { event_id: `flaky-${i}` });
    await client.flush();
    expect(flaky.exchanges.map((x) => x.status)).toEqual([503, 503, 200]);
    expect(deliveredBatchItems(flaky.exchanges).map((x) => [x.event.properties.event_id, x.result.status])).toEqual([
      ['flaky-0', 200],
      ['flaky-1', 200],
      ['flaky-2', 200],
    ]);
    expect(errors).toEqual([]);
    await client.close();
  });

  it('trackAsync fails open on 502 and the event is delivered afterwards', async () => {
    const flaky = await proxy({ intercept: ({ index }) => (index === 0 ? { status: 502 } : undefined) });
    const { client } = collectingClient(flaky.url, server.writeKey, { minRetryDelay: 20 });
    const insights = await client.trackAsync('login', { event_id: 'flaky-async' });
    expect(insights.error).toMatchObject({ code: 'http', status: 502 });
    await client.flush();
    expect(deliveredBatchItems(flaky.exchanges).map((x) => x.event.properties.event_id)).toEqual(['flaky-async']);
    await client.close();
  });

  it('waits at least Retry-After after a 429 before sending again', async () => {
    const limited = await proxy({
      intercept: ({ index }) => (index === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: { status: 429, code: 'rate_limited' } } : undefined),
    });
    const { client, errors } = collectingClient(limited.url, server.writeKey, { minRetryDelay: 1 });
    client.track('view', { event_id: 'limited-1' });
    await client.flush();
    const [refused, accepted] = limited.exchanges;
    expect(refused!.status).toBe(429);
    expect(accepted!.status).toBe(200);
    expect(accepted!.receivedAt - refused!.answeredAt).toBeGreaterThanOrEqual(990);
    expect(errors).toEqual([]);
    await client.close();
  });
});

describe('4xx from the real server are dropped and reported, never retried', () => {
  it('an unknown write key: 401 for the batch and for trackAsync', async () => {
    const recorder = await proxy();
    const { client, errors } = collectingClient(recorder.url, 'vigil_wk_doesnotexist', { minRetryDelay: 1 });
    client.track('view', { event_id: 'badkey-1' });
    await client.flush();
    expect(recorder.exchanges.map((x) => x.status)).toEqual([401]);
    expect(errors[0]).toMatchObject({ code: 'http', status: 401 });
    expect(errors[0]!.problem?.status).toBe(401);
    expect(errors[0]!.dropped.map((e) => e.properties.event_id)).toEqual(['badkey-1']);

    const insights = await client.trackAsync('login');
    expect(insights.failOpen).toBe(true);
    expect(insights.error?.status).toBe(401);
    await client.close();
  });

  it('an item Vigil refuses is reported; the rest of its batch is stored', async () => {
    const recorder = await proxy();
    const { client, errors } = collectingClient(recorder.url, server.writeKey);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    client.track('view', { event_id: 'item-ok' });
    client.track('view', { event_id: 'item-future', timestamp: future });
    await client.flush();
    const results = deliveredBatchItems(recorder.exchanges).map((x) => [x.event.properties.event_id, x.result.status]);
    expect(results).toEqual([
      ['item-ok', 200],
      ['item-future', 400],
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'rejected', status: 400 });
    expect(errors[0]!.problem?.detail).toBeTruthy();
    expect(errors[0]!.dropped.map((e) => e.properties.event_id)).toEqual(['item-future']);
    await client.close();
  });

  it('413: a batch too large for the service is split and resent', async () => {
    const recorder = await proxy();
    const { client, errors } = collectingClient(recorder.url, server.writeKey, { maxBatchBytes: 5_000_000 });
    const pad = 'x'.repeat(20_000);
    for (let i = 0; i < 80; i++) client.track('upload', { event_id: `big-${i}`, pad });
    await client.flush();
    expect(recorder.exchanges[0]!.status).toBe(413);
    expect(recorder.exchanges.slice(1).every((x) => x.status === 200)).toBe(true);
    const delivered = deliveredBatchItems(recorder.exchanges);
    expect(delivered.map((x) => x.event.properties.event_id)).toEqual(Array.from({ length: 80 }, (_, i) => `big-${i}`));
    expect(delivered.every((x) => x.result.status === 200)).toBe(true);
    expect(errors).toEqual([]);
    await client.close();
  });
});
