import express from 'express';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigil, type VigilContext, type VigilError } from '../src/index.js';
import { startVigil, type RunningVigil } from './start-vigil.js';
import { closeServer, listen, postJson } from './support/http.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';

let server: RunningVigil;
let proxy: RecordingProxy;
let risk: VigilContext;
let app: Server;
let appUrl: string;
const errors: VigilError[] = [];

beforeAll(async () => {
  server = await startVigil();
  proxy = await startProxy({ target: server.url });
  risk = vigil(proxy.url, { writeKey: server.writeKey, trustedProxies: ['loopback'], onError: (e) => errors.push(e) }).eventPaths({
    post: { login: '/login', transfer: '/accounts/*/transfer' },
    get: { statement: '/accounts/:id/statement' },
  });

  const application = express();
  application.use(express.json());
  application.use(risk.express({ identify: (req) => req.headers['x-user'] as string | undefined }));
  application.post('/login', async (req, res) => {
    const insights = await req.vigil.identify(req.body.email).trackAsync('login');
    res.status(insights.risk_score > 0.9 ? 403 : 200).json({ decision: insights.risk_score > 0.9 ? 'deny' : 'allow', insights });
  });
  application.post('/accounts/:id/transfer', (req, res) => {
    res.json({ ok: true, id: req.params.id });
  });
  application.get('/accounts/:id/statement', (_req, res) => {
    res.status(404).json({ error: 'no statement' });
  });
  application.post('/profile', (req, res) => {
    res.json({ hasContext: req.vigil !== undefined, ip: req.vigil.properties.ip_address });
  });
  app = createServer(application);
  appUrl = await listen(app);
});

afterAll(async () => {
  if (app) await closeServer(app);
  await risk?.close();
  await proxy?.close();
  await server?.stop();
});

describe('Express middleware with a real Express app and the real Vigil server', () => {
  it('a login handler reads real insights from trackAsync to decide, tracked once', async () => {
    const answer = await postJson(
      `${appUrl}/login`,
      { email: 'carol@example.com' },
      {
        'x-forwarded-for': '198.51.100.40',
        'x-vigil-device-id': 'dev-express-1',
        'x-vigil-browser-token': 'btok-express',
        'user-agent': 'ExpressTest/1',
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.json.decision).toBe('allow');
    expect(answer.json.insights.device_id).toBe('dev-express-1');
    expect(answer.json.insights.event_id).toMatch(/^evt_/);

    await risk.flush();
    const logins = proxy.exchanges.filter((x) => x.path === '/events' && x.body.properties.device_id === 'dev-express-1');
    expect(logins).toHaveLength(1);
    expect(logins[0]!.body).toMatchObject({
      event: 'login',
      identity: 'carol@example.com',
      properties: {
        ip_address: '198.51.100.40',
        user_agent: 'ExpressTest/1',
        browser_token: 'btok-express',
        request_method: 'POST',
        request_path: '/login',
      },
    });
    // The handler tracked "login" itself, so the middleware did not send it again.
    const batched = deliveredBatchItems(proxy.exchanges).filter((x) => x.event.properties.device_id === 'dev-express-1');
    expect(batched).toEqual([]);
  });

  it('tracks a matching route by itself when the response is done, with status and identity', async () => {
    const answer = await postJson(
      `${appUrl}/accounts/42/transfer?confirm=1`,
      { amount: 10 },
      {
        'x-forwarded-for': '198.51.100.41',
        'x-vigil-device-id': 'dev-express-2',
        'x-user': 'dave',
      },
    );
    expect(answer.json).toEqual({ ok: true, id: '42' });
    await waitForBatched('dev-express-2');
    const [item] = deliveredBatchItems(proxy.exchanges).filter((x) => x.event.properties.device_id === 'dev-express-2');
    expect(item!.event).toMatchObject({
      event: 'transfer',
      identity: 'dave',
      properties: { ip_address: '198.51.100.41', request_path: '/accounts/42/transfer', status_code: 200 },
    });
    expect(item!.result.status).toBe(200);
  });

  it('tracks GET routes from the get map, failed responses included', async () => {
    const response = await fetch(`${appUrl}/accounts/7/statement`, { headers: { 'x-vigil-device-id': 'dev-express-3' } });
    expect(response.status).toBe(404);
    await waitForBatched('dev-express-3');
    const [item] = deliveredBatchItems(proxy.exchanges).filter((x) => x.event.properties.device_id === 'dev-express-3');
    expect(item!.event).toMatchObject({ event: 'statement', properties: { request_method: 'GET', status_code: 404 } });
  });

  it('gives every request a context but tracks nothing for unmatched routes', async () => {
    const before = proxy.exchanges.length;
    const answer = await postJson(`${appUrl}/profile`, {}, { 'x-forwarded-for': '198.51.100.42', 'x-vigil-device-id': 'dev-express-4' });
    expect(answer.json).toEqual({ hasContext: true, ip: '198.51.100.42' });
    await risk.flush();
    expect(proxy.exchanges.slice(before).filter((x) => JSON.stringify(x.body).includes('dev-express-4'))).toEqual([]);
  });

  it('never reports an error on the happy path', () => {
    expect(errors).toEqual([]);
  });
});

async function waitForBatched(deviceId: string): Promise<void> {
  // The middleware sends on response finish; flush once the event is queued or already sent.
  for (let i = 0; i < 100; i++) {
    await risk.flush();
    if (deliveredBatchItems(proxy.exchanges).some((x) => x.event.properties.device_id === deviceId)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`event for ${deviceId} never reached Vigil`);
}
