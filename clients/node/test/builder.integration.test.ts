import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigil, type VigilError, type VigilOptions } from '../src/index.js';
import { startVigil, type RunningVigil } from './start-vigil.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';

let server: RunningVigil;
let proxy: RecordingProxy;

beforeAll(async () => {
  server = await startVigil();
  proxy = await startProxy({ target: server.url });
});

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

function client(options: VigilOptions = {}) {
  const errors: VigilError[] = [];
  const root = vigil(proxy.url, { writeKey: server.writeKey, onError: (e) => errors.push(e), ...options });
  return { root, errors };
}

function sentTo(path: string, eventId: string) {
  return proxy.exchanges.filter((x) => x.path === path && x.body?.properties?.event_id === eventId);
}

describe('every builder call, against the real Vigil server', () => {
  it('trackAsync returns the real insights, typed, with helpers', async () => {
    const { root, errors } = client();
    const insights = await root.trackAsync('login', { event_id: 'b-trackasync-1', device_id: 'dev-b1' });
    expect(errors).toEqual([]);
    expect(insights.failOpen).toBe(false);
    expect(insights.event_id).toMatch(/^evt_/);
    expect(insights.device_id).toBe('dev-b1');
    expect(insights.handprint_id).toMatch(/^hp_/);
    expect(insights.risk_score).toBeGreaterThanOrEqual(0);
    expect(insights.risk_score).toBeLessThanOrEqual(1);
    expect(Array.isArray(insights.current_tags)).toBe(true);
    for (const tag of insights.current_tags) expect(insights.hasTag(tag)).toBe(true);
    expect(insights.hasTag('not-a-tag')).toBe(false);
    for (const name of Object.keys(insights.behaviors)) expect(insights.behavior(name)).toEqual(insights.behaviors[name]);
    expect(insights.behavior('no-such-behavior')).toBeUndefined();
    await root.close();
  });

  it('setIp sends ip_address and Vigil accepts it', async () => {
    const { root, errors } = client();
    const insights = await root.setIp('203.0.113.77').trackAsync('login', { event_id: 'b-setip-1' });
    expect(insights.failOpen).toBe(false);
    expect(sentTo('/events', 'b-setip-1')[0]!.body.properties.ip_address).toBe('203.0.113.77');
    expect(errors).toEqual([]);
    await root.close();
  });

  it('identify sends the identity and Vigil accepts it', async () => {
    const { root } = client();
    const insights = await root.identify('alice@example.com').trackAsync('login', { event_id: 'b-identify-1' });
    expect(insights.failOpen).toBe(false);
    expect(sentTo('/events', 'b-identify-1')[0]!.body.identity).toBe('alice@example.com');
    await root.close();
  });

  it('withRequest reads a real IncomingMessage: IP via trusted proxy, headers, device id echoed by Vigil', async () => {
    const { root } = client({ trustedProxies: ['loopback'] });
    const app: Server = createServer(async (req, res) => {
      const insights = await root.withRequest(req).trackAsync('login', { event_id: 'b-withrequest-node' });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(insights));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const port = (app.address() as AddressInfo).port;
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/login?next=/home`, {
        method: 'POST',
        headers: {
          'user-agent': 'IntegrationBrowser/1.0',
          'accept-language': 'de-CH',
          'x-forwarded-for': '198.51.100.23',
          'x-vigil-browser-token': 'btok-node',
          'x-vigil-device-id': 'dev-node-1',
        },
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
      expect(answer.device_id).toBe('dev-node-1');
      expect(answer.event_id).toMatch(/^evt_/);
      expect(sentTo('/events', 'b-withrequest-node')[0]!.body.properties).toMatchObject({
        ip_address: '198.51.100.23',
        user_agent: 'IntegrationBrowser/1.0',
        accept_language: 'de-CH',
        browser_token: 'btok-node',
        device_id: 'dev-node-1',
        request_method: 'POST',
        request_path: '/login',
      });
    } finally {
      await new Promise((resolve) => app.close(resolve));
      await root.close();
    }
  });

  it('withRequest reads a Fetch API Request', async () => {
    const { root } = client({ trustedProxies: ['10.0.0.0/8'] });
    const request = new Request('https://bank.example/accounts/9/transfer', {
      method: 'POST',
      headers: { 'x-vigil-device-id': 'dev-fetch-1', 'cf-connecting-ip': '192.0.2.44', 'user-agent': 'FetchUA' },
    });
    const insights = await root.withRequest(request, { remoteAddress: '10.1.2.3' }).trackAsync('transfer', { event_id: 'b-withrequest-fetch', amount: 120 });
    expect(insights.failOpen).toBe(false);
    expect(insights.device_id).toBe('dev-fetch-1');
    expect(sentTo('/events', 'b-withrequest-fetch')[0]!.body.properties).toMatchObject({
      ip_address: '192.0.2.44',
      user_agent: 'FetchUA',
      request_path: '/accounts/9/transfer',
      amount: 120,
    });
    await root.close();
  });

  it('eventPaths maps method and path to an event name', () => {
    const { root } = client();
    const mapped = root.eventPaths({ post: { login: '/login', transfer: '/accounts/*/transfer' }, get: { statement: '/accounts/*/statement' } });
    expect(mapped.eventFor('POST', '/accounts/1/transfer')).toBe('transfer');
    expect(mapped.eventFor('GET', '/accounts/1/statement')).toBe('statement');
    expect(mapped.eventFor('GET', '/login')).toBeUndefined();
    expect(root.eventFor('POST', '/login')).toBeUndefined();
  });

  it('track queues, batches to /events/batch and Vigil stores each event', async () => {
    const { root, errors } = client();
    const user = root.identify('bob').setIp('203.0.113.8');
    for (let i = 0; i < 3; i++) user.track('view', { event_id: `b-track-${i}`, page: i });
    await root.flush();
    const items = deliveredBatchItems(proxy.exchanges).filter((x) => String(x.event.properties.event_id).startsWith('b-track-'));
    expect(items).toHaveLength(3);
    for (const { event, result } of items) {
      expect(event).toMatchObject({ event: 'view', identity: 'bob', properties: { ip_address: '203.0.113.8' } });
      expect(result.status).toBe(200);
      expect(result.insights.event_id).toMatch(/^evt_/);
    }
    expect(errors).toEqual([]);
    await root.close();
  });

  it('an event sent twice with the same event_id is stored once (Vigil returns the first id)', async () => {
    const { root } = client();
    const first = await root.trackAsync('login', { event_id: 'b-idem-1' });
    const again = await root.trackAsync('login', { event_id: 'b-idem-1' });
    expect(again.event_id).toBe(first.event_id);
    await root.close();
  });
});
