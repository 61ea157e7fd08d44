import { describe, expect, it } from 'vitest';
import { fakeClient } from '../../test/support/fake-client.js';
import { batchOk, response } from '../../test/support/fake-transport.js';

describe('track: batching', () => {
  it('waits flushInterval, then sends one batch with ids, timestamps and the write key', async () => {
    const { client, clock, transport } = fakeClient();
    client.identify('u1').track('login', { plan: 'pro' });
    client.track('view');
    transport.reply(batchOk(2));

    await clock.advance(999);
    expect(transport.requests).toHaveLength(0);
    await clock.advance(1);

    expect(transport.requests).toHaveLength(1);
    const [request] = transport.requests;
    expect(request!.url).toBe('http://vigil.test/events/batch');
    expect(request!.headers.authorization).toBe('Bearer vigil_wk_test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json.events).toEqual([
      { event: 'login', identity: 'u1', properties: { plan: 'pro', event_id: 'id-1', timestamp: '2025-01-01T00:00:00.000Z' } },
      { event: 'view', properties: { event_id: 'id-2', timestamp: '2025-01-01T00:00:00.000Z' } },
    ]);
    expect(client.queued).toBe(0);
  });

  it('sends at once when a batch is full, at most maxBatchSize per request', async () => {
    const { client, clock, transport } = fakeClient({ maxBatchSize: 2 });
    transport.fallback = (r) => batchOk(r.json.events.length);
    for (let i = 0; i < 5; i++) client.track(`e${i}`);
    await clock.advance(0);
    expect(transport.requests.map((r) => r.json.events.length)).toEqual([2, 2]);
    await clock.advance(1000);
    expect(transport.requests.map((r) => r.json.events.length)).toEqual([2, 2, 1]);
  });

  it('keeps batches under maxBatchBytes', async () => {
    const { client, clock, transport } = fakeClient({ maxBatchBytes: 400 });
    transport.fallback = (r) => batchOk(r.json.events.length);
    for (let i = 0; i < 4; i++) client.track('e', { pad: 'x'.repeat(100) });
    await client.flush();
    await clock.advance(0);
    for (const r of transport.requests) expect(Buffer.byteLength(r.body)).toBeLessThanOrEqual(400);
    expect(transport.batchedEvents).toHaveLength(4);
  });

  it('caps maxBatchSize at the service limit of 100', async () => {
    const { client, clock, transport } = fakeClient({ maxBatchSize: 500 });
    transport.fallback = (r) => batchOk(r.json.events.length);
    for (let i = 0; i < 150; i++) client.track('e');
    await clock.advance(0);
    expect(transport.requests[0]!.json.events).toHaveLength(100);
  });
});

describe('track: retries', () => {
  it('retries 5xx after a jittered backoff, with the same event ids', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(response(503), batchOk(1));
    client.track('login');
    await clock.advance(1000);
    expect(transport.requests).toHaveLength(1);

    // failure 1: a 1 s step, half fixed + 0.5 × half jitter = 750 ms (clients/POLICY.md)
    await clock.advance(749);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    expect(transport.requests).toHaveLength(2);
    expect(transport.requests[1]!.json.events).toEqual(transport.requests[0]!.json.events);
    // Each send is stamped with its own time: the service corrects the timestamps by the clock's error at that send.
    const sentAt = transport.requests.map((r) => Date.parse(r.json.sent_at));
    expect(sentAt[1]! - sentAt[0]!).toBe(750);
    expect(errors).toEqual([]);
    expect(client.queued).toBe(0);
  });

  it('backs off exponentially across consecutive failures', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(500), response(502), response(504), batchOk(1));
    client.track('login');
    await clock.advance(1000);
    const sentAt = [clock.now()];
    for (const expected of [750, 1500, 3000]) {
      await clock.advance(expected - 1);
      expect(transport.requests).toHaveLength(sentAt.length);
      await clock.advance(1);
      sentAt.push(clock.now());
      expect(transport.requests).toHaveLength(sentAt.length);
    }
  });

  it('waits what Retry-After asks on 429 when that is longer than its own backoff', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(429, { status: 429 }, { 'Retry-After': '7' }), batchOk(1));
    client.track('login');
    await clock.advance(1000);
    await clock.advance(6999);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    expect(transport.requests).toHaveLength(2);
  });

  it('caps Retry-After at maxRetryAfter', async () => {
    const { client, clock, transport } = fakeClient({ maxRetryAfter: 2000 });
    transport.reply(response(503, {}, { 'Retry-After': '3600' }), batchOk(1));
    client.track('login');
    await clock.advance(1000);
    await clock.advance(2000);
    expect(transport.requests).toHaveLength(2);
  });

  it('retries 408 and network failures', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(response(408), new TypeError('fetch failed'), batchOk(1));
    client.track('login');
    await clock.advance(1000 + 750 + 1500);
    expect(transport.requests).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('aborts a request after requestTimeout and retries it', async () => {
    const { client, clock, transport } = fakeClient({ requestTimeout: 5000 });
    transport.reply('hang', batchOk(1));
    client.track('login');
    await clock.advance(1000);
    expect(transport.requests[0]!.signal.aborted).toBe(false);
    await clock.advance(5000);
    expect(transport.requests[0]!.signal.aborted).toBe(true);
    await clock.advance(750);
    expect(transport.requests).toHaveLength(2);
  });

  it('gives up after maxAttempts and reports the dropped events', async () => {
    const { client, clock, transport, errors } = fakeClient({ maxAttempts: 3 });
    transport.fallback = () => response(503, { title: 'down' });
    client.track('login');
    await clock.advance(60_000);
    expect(transport.requests).toHaveLength(3);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('retries_exhausted');
    expect(errors[0]!.status).toBe(503);
    expect(errors[0]!.dropped.map((e) => e.event)).toEqual(['login']);
    expect(client.queued).toBe(0);
  });

  it('does not count failures without an answer toward maxAttempts', async () => {
    const { client, clock, transport, errors } = fakeClient({ maxAttempts: 2 });
    transport.reply(new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'), response(503), batchOk(1));
    client.track('login');
    await clock.advance(120_000);
    expect(transport.requests).toHaveLength(5);
    expect(errors).toEqual([]);
    expect(client.queued).toBe(0);
  });

  it('a pause applies to everything queued, not just the failed batch', async () => {
    const { client, clock, transport } = fakeClient({ maxBatchSize: 1 });
    transport.reply(response(429, {}, { 'Retry-After': '10' }));
    transport.fallback = () => batchOk(1);
    client.track('a');
    client.track('b');
    await clock.advance(9999);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    await clock.advance(0);
    expect(transport.batchedEvents.map((e) => e.event)).toEqual(['a', 'a', 'b']);
  });
});

describe('track: responses that are not retried', () => {
  it('drops the batch on other 4xx and reports the problem', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(response(401, { title: 'Unauthorized', status: 401, detail: 'unknown key', code: 'unauthorized' }));
    client.track('a');
    client.track('b');
    await clock.advance(60_000);
    expect(transport.requests).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'http', status: 401, problem: { code: 'unauthorized' } });
    expect(errors[0]!.dropped.map((e) => e.event)).toEqual(['a', 'b']);
  });

  it('splits a batch on 413 and resends it in halves', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(response(413));
    transport.fallback = (r) => batchOk(r.json.events.length);
    for (const name of ['a', 'b', 'c', 'd']) client.track(name);
    await clock.advance(1000);
    await clock.advance(0);
    expect(transport.requests.map((r) => r.json.events.map((e: { event: string }) => e.event))).toEqual([
      ['a', 'b', 'c', 'd'],
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(errors).toEqual([]);
  });

  it('drops a single event the service finds too large', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(response(413));
    client.track('a');
    await clock.advance(60_000);
    expect(transport.requests).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'http', status: 413 });
  });

  it('handles per-item results: keeps successes, reports refusals, retries temporary failures', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.reply(
      response(200, {
        results: [
          { status: 200, insights: {} },
          { status: 400, error: { status: 400, detail: 'timestamp is in the future', code: 'validation' } },
          { status: 503, error: { status: 503 } },
        ],
      }),
      batchOk(1),
    );
    client.track('ok');
    client.track('bad');
    client.track('later');
    await clock.advance(1000 + 750);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'rejected', status: 400, problem: { code: 'validation' } });
    expect(errors[0]!.dropped.map((e) => e.event)).toEqual(['bad']);
    expect(transport.requests[1]!.json.events.map((e: { event: string }) => e.event)).toEqual(['later']);
    expect(client.queued).toBe(0);
  });

  it('resends when a 2xx body is not a matching results array (idempotent keys make it safe)', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(200, '<html>captive portal</html>'), batchOk(1));
    client.track('a');
    await clock.advance(1000 + 750);
    expect(transport.requests).toHaveLength(2);
    expect(transport.requests[1]!.json.events[0].properties.event_id).toBe('id-1');
  });
});

describe('track: the queue', () => {
  it('is bounded: beyond maxQueueSize events are dropped and reported', async () => {
    const { client, transport, errors } = fakeClient({ maxQueueSize: 2 });
    transport.fallback = (r) => batchOk(r.json.events.length);
    client.track('a');
    client.track('b');
    client.track('c');
    expect(client.queued).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('queue_full');
    expect(errors[0]!.dropped[0]!.event).toBe('c');
  });

  it('never throws into the caller, even for bad input or a throwing onError', async () => {
    const { client, transport } = fakeClient({
      onError: () => {
        throw new Error('hook bug');
      },
    });
    transport.fallback = () => batchOk(1);
    expect(() => client.track('')).not.toThrow();
    expect(() => client.track('x', [] as never)).not.toThrow();
    expect(() => client.track(42 as never)).not.toThrow();
    expect(client.queued).toBe(0);
  });

  it('reports invalid events instead of sending them', () => {
    const { client, errors } = fakeClient();
    client.track('x'.repeat(201));
    client.track('x', 'not an object' as never);
    expect(errors.map((e) => e.code)).toEqual(['invalid_event', 'invalid_event']);
  });
});

describe('flush and close', () => {
  it('flush sends now and resolves once delivered', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(batchOk(2));
    client.track('a');
    client.track('b');
    let done = false;
    void client.flush().then(() => (done = true));
    await clock.advance(0);
    expect(transport.requests).toHaveLength(1);
    expect(done).toBe(true);
  });

  it('flush waits through retries', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply(response(503), batchOk(1));
    client.track('a');
    let done = false;
    void client.flush().then(() => (done = true));
    await clock.advance(0);
    expect(done).toBe(false);
    await clock.advance(750);
    expect(done).toBe(true);
  });

  it('flush does not wait for events tracked after it was called', async () => {
    const { client, clock, transport } = fakeClient({ maxBatchSize: 1 });
    transport.reply(batchOk(1), 'hang');
    client.track('a');
    let done = false;
    void client.flush().then(() => (done = true));
    client.track('b');
    await clock.advance(0);
    expect(done).toBe(true);
    expect(client.queued).toBe(1);
  });

  it('flush resolves at once with nothing queued', async () => {
    const { client } = fakeClient();
    await expect(client.flush()).resolves.toBeUndefined();
  });

  it('close flushes everything queued, then refuses new events', async () => {
    const { client, clock, transport, errors } = fakeClient({ maxBatchSize: 2 });
    transport.fallback = (r) => batchOk(r.json.events.length);
    for (let i = 0; i < 5; i++) client.track(`e${i}`);
    const closing = client.close();
    await clock.advance(0);
    await expect(closing).resolves.toEqual({ flushed: true, dropped: 0 });
    expect(transport.batchedEvents).toHaveLength(5);

    client.track('late');
    expect(errors.map((e) => e.code)).toEqual(['closed']);
    expect(await client.close()).toEqual({ flushed: true, dropped: 0 });
  });

  it('close gives up after its timeout and reports what was left', async () => {
    const { client, clock, transport, errors } = fakeClient();
    transport.fallback = () => response(503);
    client.track('a');
    client.track('b');
    const closing = client.close({ timeout: 3000 });
    await clock.advance(3000);
    await expect(closing).resolves.toEqual({ flushed: false, dropped: 2 });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('closed');
    expect(errors[0]!.dropped.map((e) => e.event)).toEqual(['a', 'b']);
    const sent = transport.requests.length;
    await clock.advance(60_000);
    expect(transport.requests).toHaveLength(sent);
    expect(clock.pending).toEqual([]);
  });

  it('close aborts a request still in flight at the timeout', async () => {
    const { client, clock, transport } = fakeClient();
    transport.reply('hang');
    client.track('a');
    const closing = client.close({ timeout: 1000 });
    await clock.advance(1000);
    expect(await closing).toEqual({ flushed: false, dropped: 1 });
    expect(transport.requests[0]!.signal.aborted).toBe(true);
  });
});
