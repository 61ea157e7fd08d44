import { describe, expect, it } from 'vitest';
import { fakeClient } from '../../test/support/fake-client.js';
import { batchOk, insightsBody, response } from '../../test/support/fake-transport.js';
import type { HttpResponse, Transport } from './transport.js';

describe('trackAsync', () => {
  it('posts one event and resolves with typed insights', async () => {
    const { client, transport, errors } = fakeClient();
    transport.reply(response(200, insightsBody({ device_id: 'd1' })));
    const insights = await client.identify('u1').trackAsync('login', { device_id: 'd1' });

    const [request] = transport.requests;
    expect(request!.url).toBe('http://vigil.test/events');
    expect(request!.headers['idempotency-key']).toBe('id-1');
    expect(request!.json).toEqual({
      event: 'login',
      identity: 'u1',
      properties: { device_id: 'd1', event_id: 'id-1', timestamp: '2025-01-01T00:00:00.000Z' },
      sent_at: '2025-01-01T00:00:00.000Z',
    });
    expect(insights.failOpen).toBe(false);
    expect(insights.device_id).toBe('d1');
    expect(insights.hasTag('new_device')).toBe(true);
    expect(insights.behavior('logins_1h')?.count).toBe(3);
    expect(errors).toEqual([]);
  });

  it('resolves with the fail-open result at the timeout and still records the event later', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply('hang', batchOk(1));
    const pending = client.trackAsync('login', { device_id: 'd1' });
    let result: Awaited<typeof pending> | undefined;
    void pending.then((r) => (result = r));

    await clock.advance(1999);
    expect(result).toBeUndefined();
    await clock.advance(1);
    expect(result?.failOpen).toBe(true);
    expect(result?.risk_score).toBe(0);
    expect(result?.current_tags).toEqual([]);
    expect(result?.device_id).toBe('d1');
    expect(result?.warnings).toEqual(['vigil_unavailable']);
    expect(result?.error?.code).toBe('timeout');
    expect(errors.map((e) => e.code)).toEqual(['timeout']);
    expect(errors[0]!.dropped).toEqual([]);
    expect(transport.requests[0]!.signal.aborted).toBe(true);

    // Handed to the batch queue with the same idempotency key.
    await clock.advance(1000);
    // The same event, without the first request's send time (the batch carries its own).
    const { sent_at: _sentAt, ...event } = transport.requests[0]!.json;
    expect(transport.batchedEvents).toEqual([event]);
  });

  it('meets its deadline even with a transport that ignores the abort signal', async () => {
    const deaf: Transport = { send: () => new Promise<HttpResponse>(() => {}) };
    const { client, clock } = fakeClient({ transport: deaf, timeout: 300 });
    const pending = client.trackAsync('login');
    await clock.advance(300);
    await expect(pending).resolves.toMatchObject({ failOpen: true });
  });

  it('accepts a per-call timeout', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply('hang');
    transport.fallback = () => batchOk(1);
    let done = false;
    void client.trackAsync('login', {}, { timeout: 50 }).then(() => (done = true));
    await clock.advance(50);
    expect(done).toBe(true);
  });

  it('fails open when the service is unreachable, and requeues the event', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }), batchOk(1));
    const insights = await client.trackAsync('login');
    expect(insights.error?.code).toBe('network');
    expect(insights.error?.message).toContain('ECONNREFUSED');
    await clock.advance(1000);
    expect(transport.batchedEvents).toHaveLength(1);
  });

  it('fails open on 5xx and requeues', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(503), batchOk(1));
    const insights = await client.trackAsync('login');
    expect(insights.error).toMatchObject({ code: 'http', status: 503 });
    await clock.advance(1000);
    expect(transport.batchedEvents).toHaveLength(1);
  });

  it('fails open on 4xx without requeueing, reporting the refused event', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(response(400, { status: 400, code: 'validation_failed', detail: 'bad timestamp' }));
    const insights = await client.trackAsync('login');
    expect(insights.failOpen).toBe(true);
    expect(errors[0]).toMatchObject({ code: 'http', status: 400, problem: { code: 'validation_failed' } });
    expect(errors[0]!.dropped.map((e) => e.event)).toEqual(['login']);
    await clock.advance(60_000);
    expect(transport.requests).toHaveLength(1);
  });

  it('after a 429, respects Retry-After on both paths without asking again', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(429, {}, { 'Retry-After': '5' }));
    transport.fallback = (r) => (r.url.endsWith('/batch') ? batchOk(r.json.events.length) : response(200, insightsBody()));

    expect((await client.trackAsync('a')).error?.code).toBe('http');
    const second = await client.trackAsync('b');
    expect(second.error?.code).toBe('rate_limited');
    expect(transport.requests).toHaveLength(1);

    await clock.advance(4999);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    expect(transport.batchedEvents.map((e) => e.event)).toEqual(['a', 'b']);
    expect((await client.trackAsync('c')).failOpen).toBe(false);
  });

  it('fails open without requeueing when a 2xx body is not insights (the event was stored)', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(200, 'not json'));
    const insights = await client.trackAsync('login');
    expect(insights.error?.code).toBe('invalid_response');
    await clock.advance(60_000);
    expect(transport.requests).toHaveLength(1);
  });

  it('uses a configured fail-open object', async () => {
    const { client, transport } = fakeClient({ failOpen: { risk_score: 1, current_tags: ['vigil_unavailable'] } });
    transport.reply(response(500));
    transport.fallback = () => batchOk(1);
    const insights = await client.trackAsync('login');
    expect(insights.risk_score).toBe(1);
    expect(insights.hasTag('vigil_unavailable')).toBe(true);
  });

  it('uses a configured fail-open function, given the error and the event', async () => {
    const { client, transport } = fakeClient({
      failOpen: (error, event) => ({ risk_score: event.event === 'transfer' ? 1 : 0, warnings: [error.code] }),
    });
    transport.fallback = (r) => (r.url.endsWith('/batch') ? batchOk(1) : response(502));
    expect((await client.trackAsync('transfer')).risk_score).toBe(1);
    expect((await client.trackAsync('login')).warnings).toEqual(['http']);
  });

  it('falls back to the default when the fail-open function throws', async () => {
    const { client, transport, errors } = fakeClient({
      failOpen: () => {
        throw new Error('bug');
      },
    });
    transport.reply(response(500));
    transport.fallback = () => batchOk(1);
    const insights = await client.trackAsync('login');
    expect(insights.risk_score).toBe(0);
    expect(errors.map((e) => e.code)).toEqual(['http', 'config']);
  });

  it('never rejects: invalid events and a closed client resolve with the fail-open result', async () => {
    const { client, transport } = fakeClient();
    expect((await client.trackAsync('')).error?.code).toBe('invalid_event');
    expect((await client.trackAsync('x', 5 as never)).error?.code).toBe('invalid_event');
    await client.close();
    expect((await client.trackAsync('login')).error?.code).toBe('closed');
    expect(transport.requests).toHaveLength(0);
  });
});
