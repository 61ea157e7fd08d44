import { describe, expect, it } from 'vitest';
import { fakeClient } from '../test/support/fake-client.js';
import { batchOk, insightsBody, response } from '../test/support/fake-transport.js';
import { settle } from '../test/support/fake-clock.js';

describe('VigilContext: an immutable chained builder', () => {
  it('every chain call returns a new context and leaves the receiver unchanged', () => {
    const { client } = fakeClient();
    const withIp = client.setIp('203.0.113.1');
    const identified = withIp.identify('alice');
    const withPaths = identified.eventPaths({ post: { login: '/login' } });
    const withRequest = withPaths.withRequest({ headers: { 'user-agent': 'ua' }, method: 'POST', url: '/login', socket: { remoteAddress: '198.51.100.1' } });

    const all = [client, withIp, identified, withPaths, withRequest];
    expect(new Set(all).size).toBe(all.length);
    expect(client.identity).toBeUndefined();
    expect(client.properties).toEqual({});
    expect(withIp.properties).toEqual({ ip_address: '203.0.113.1' });
    expect(withIp.identity).toBeUndefined();
    expect(identified.identity).toBe('alice');
    expect(identified.eventFor('POST', '/login')).toBeUndefined();
    expect(withPaths.eventFor('POST', '/login')).toBe('login');
    expect(withRequest.properties).toEqual({
      ip_address: '203.0.113.1',
      user_agent: 'ua',
      request_method: 'POST',
      request_path: '/login',
    });
  });

  it('merges properties: request < setIp < the call', async () => {
    const { client, transport } = fakeClient();
    transport.fallback = () => response(200, insightsBody());
    const context = client
      .withRequest({ headers: { 'user-agent': 'ua', 'x-vigil-device-id': 'from-header' }, socket: { remoteAddress: '198.51.100.1' } })
      .setIp('203.0.113.1');
    await context.trackAsync('login', { device_id: 'explicit' });
    expect(transport.requests[0]!.json.properties).toMatchObject({
      ip_address: '203.0.113.1',
      user_agent: 'ua',
      device_id: 'explicit',
    });
  });

  it('contexts derived concurrently never share identity or IP', async () => {
    const { client, clock, transport } = fakeClient({ maxBatchSize: 100 });
    transport.fallback = (r) => batchOk(r.json.events.length);
    const users = Array.from({ length: 50 }, (_, i) => ({ id: `user-${i}`, ip: `198.51.100.${i + 1}` }));
    await Promise.all(
      users.map(async (user, i) => {
        const base = client.setIp(user.ip);
        await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
        base.identify(user.id).track('login', { n: i });
      }),
    );
    await clock.advance(1000);
    const sent = transport.batchedEvents;
    expect(sent).toHaveLength(50);
    for (const event of sent) {
      const user = users[event.properties.n as number]!;
      expect(event.identity).toBe(user.id);
      expect(event.properties.ip_address).toBe(user.ip);
    }
  });

  it('reports and ignores an invalid IP or identity instead of throwing', () => {
    const { client, errors } = fakeClient();
    expect(client.setIp('not-an-ip').properties).toEqual({});
    expect(client.identify('' as string).identity).toBeUndefined();
    expect(client.setIp('::ffff:203.0.113.4').properties).toEqual({ ip_address: '203.0.113.4' });
    expect(errors.map((e) => e.code)).toEqual(['invalid_event', 'invalid_event']);
  });

  it('reports and ignores an unreadable request', () => {
    const { client, errors } = fakeClient();
    expect(client.withRequest(null as never).properties).toEqual({});
    expect(errors.map((e) => e.code)).toEqual(['invalid_event']);
  });

  it('shares one queue across all derived contexts', async () => {
    const { client, clock, transport } = fakeClient();
    transport.fallback = (r) => batchOk(r.json.events.length);
    client.identify('a').track('x');
    client.setIp('203.0.113.1').track('y');
    expect(client.queued).toBe(2);
    await client.identify('b').flush();
    await clock.advance(0);
    expect(transport.requests).toHaveLength(1);
    expect(transport.batchedEvents).toHaveLength(2);
    await settle();
  });
});
