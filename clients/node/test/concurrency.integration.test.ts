import express from 'express';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigil, type VigilContext } from '../src/index.js';
import { startVigil, type RunningVigil } from './start-vigil.js';
import { closeServer, listen, postJson } from './support/http.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';

let server: RunningVigil;
let recorder: RecordingProxy;
let risk: VigilContext;
let app: Server;
let appUrl: string;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await startVigil();
  recorder = await startProxy({ target: server.url });
  risk = vigil(recorder.url, { writeKey: server.writeKey, trustedProxies: ['loopback'], timeout: 10_000 }).eventPaths({
    post: { transfer: '/transfer' },
  });
  const application = express();
  application.use(express.json());
  application.use(risk.express());
  application.post('/login', async (req, res) => {
    // Identity set, then the request yields while others run, then the event is sent.
    const context = req.vigil.identify(req.body.user);
    await pause(req.body.delay);
    const insights = await context.trackAsync('login', { n: req.body.n });
    res.json({ device_id: insights.device_id, failOpen: insights.failOpen });
  });
  application.post('/transfer', async (req, res) => {
    req.vigil = req.vigil.identify(req.body.user);
    await pause(req.body.delay);
    res.json({ ok: true });
  });
  app = createServer(application);
  appUrl = await listen(app);
});

afterAll(async () => {
  if (app) await closeServer(app);
  await risk?.close();
  await recorder?.close();
  await server?.stop();
});

const users = Array.from({ length: 40 }, (_, n) => ({
  n,
  user: `user-${n}@example.com`,
  ip: `198.51.100.${n + 10}`,
  device: `dev-conc-${n}`,
  delay: (n * 37) % 50,
}));

describe('concurrent requests never share identity or IP', () => {
  it('trackAsync from 40 interleaved requests', async () => {
    const answers = await Promise.all(
      users.map((u) => postJson(`${appUrl}/login`, { user: u.user, n: u.n, delay: u.delay }, { 'x-forwarded-for': u.ip, 'x-vigil-device-id': u.device })),
    );
    answers.forEach((answer, n) => {
      expect(answer.json).toEqual({ device_id: users[n]!.device, failOpen: false });
    });
    const sent = recorder.exchanges.filter((x) => x.path === '/events' && x.body.event === 'login');
    expect(sent).toHaveLength(40);
    for (const { body } of sent) {
      const u = users[body.properties.n as number]!;
      expect(body.identity).toBe(u.user);
      expect(body.properties.ip_address).toBe(u.ip);
      expect(body.properties.device_id).toBe(u.device);
    }
  });

  it('middleware-tracked events from 40 interleaved requests', async () => {
    await Promise.all(
      users.map((u) => postJson(`${appUrl}/transfer`, { user: u.user, delay: u.delay }, { 'x-forwarded-for': u.ip, 'x-vigil-device-id': u.device })),
    );
    await risk.flush();
    const items = deliveredBatchItems(recorder.exchanges).filter((x) => x.event.event === 'transfer');
    expect(items).toHaveLength(40);
    for (const { event, result } of items) {
      const u = users.find((candidate) => candidate.device === event.properties.device_id)!;
      expect(event.identity).toBe(u.user);
      expect(event.properties.ip_address).toBe(u.ip);
      expect(result.status).toBe(200);
    }
  });
});
