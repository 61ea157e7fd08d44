import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigil, type VigilContext, type VigilError } from '../src/index.js';
import { startVigil, type RunningVigil } from './start-vigil.js';
import { postJson } from './support/http.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';

let server: RunningVigil;
let proxy: RecordingProxy;
let risk: VigilContext;
let app: FastifyInstance;
let appUrl: string;
const errors: VigilError[] = [];

/** Fastify's types cannot be augmented from this package without depending on fastify. */
const vigilOf = (request: unknown): VigilContext => (request as { vigil: VigilContext }).vigil;

beforeAll(async () => {
  server = await startVigil();
  proxy = await startProxy({ target: server.url });
  risk = vigil(proxy.url, { writeKey: server.writeKey, trustedProxies: ['loopback'], onError: (e) => errors.push(e) }).eventPaths({
    post: { login: '/login', transfer: '/accounts/*/transfer' },
  });

  app = Fastify();
  await app.register(risk.fastify({ properties: () => ({ framework: 'fastify' }) }));
  // Routes in a child scope still see the plugin's hooks (it is registered with skip-override).
  await app.register(async (scope) => {
    scope.post<{ Body: { email: string } }>('/login', async (request, reply) => {
      const insights = await vigilOf(request).identify(request.body.email).trackAsync('login');
      return reply.send({ decision: insights.hasTag('tor') ? 'deny' : 'allow', insights });
    });
    scope.post<{ Params: { id: string } }>('/accounts/:id/transfer', async (request) => ({ ok: true, id: request.params.id }));
    scope.post('/other', async (request) => ({ ip: vigilOf(request).properties.ip_address }));
  });
  appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await risk?.close();
  await proxy?.close();
  await server?.stop();
});

describe('Fastify plugin with a real Fastify app and the real Vigil server', () => {
  it('a login route reads real insights from trackAsync to decide, tracked once', async () => {
    const answer = await postJson(
      `${appUrl}/login`,
      { email: 'erin@example.com' },
      {
        'x-forwarded-for': '198.51.100.50',
        'x-vigil-device-id': 'dev-fastify-1',
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.json.decision).toBe('allow');
    expect(answer.json.insights.device_id).toBe('dev-fastify-1');
    expect(answer.json.insights.event_id).toMatch(/^evt_/);
    await risk.flush();
    const sent = proxy.exchanges.filter((x) => JSON.stringify(x.body).includes('dev-fastify-1'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe('/events');
    expect(sent[0]!.body).toMatchObject({ event: 'login', identity: 'erin@example.com', properties: { ip_address: '198.51.100.50', request_path: '/login' } });
  });

  it('tracks a matching route by itself in onResponse', async () => {
    const answer = await postJson(
      `${appUrl}/accounts/5/transfer`,
      { amount: 1 },
      {
        'x-forwarded-for': '198.51.100.51',
        'x-vigil-device-id': 'dev-fastify-2',
      },
    );
    expect(answer.json).toEqual({ ok: true, id: '5' });
    let item: ReturnType<typeof deliveredBatchItems>[number] | undefined;
    for (let i = 0; i < 100 && item === undefined; i++) {
      await risk.flush();
      item = deliveredBatchItems(proxy.exchanges).find((x) => x.event.properties.device_id === 'dev-fastify-2');
      if (item === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(item?.event).toMatchObject({
      event: 'transfer',
      properties: { ip_address: '198.51.100.51', request_path: '/accounts/5/transfer', status_code: 200, framework: 'fastify' },
    });
    expect(item?.result.status).toBe(200);
  });

  it('decorates unmatched requests without tracking them', async () => {
    const answer = await postJson(`${appUrl}/other`, {}, { 'x-forwarded-for': '198.51.100.52', 'x-vigil-device-id': 'dev-fastify-3' });
    expect(answer.json).toEqual({ ip: '198.51.100.52' });
    await risk.flush();
    expect(proxy.exchanges.filter((x) => JSON.stringify(x.body).includes('dev-fastify-3'))).toEqual([]);
  });

  it('never reports an error on the happy path', () => {
    expect(errors).toEqual([]);
  });
});
