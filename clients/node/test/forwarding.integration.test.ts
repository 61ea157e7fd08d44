import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vigil, type VigilContext } from '../src/index.js';
import { startVigil, type RunningVigil } from './start-vigil.js';
import { closeServer, listen, postJson } from './support/http.js';

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15';

let server: RunningVigil;
let client: VigilContext;
let app: Server;
let appUrl: string;
const warnings: string[] = [];

beforeAll(async () => {
  server = await startVigil();
  client = vigil(server.url, { writeKey: server.writeKey, logger: { warn: (message) => warnings.push(message) } });
  // A backend answering its end user's login with the handprint Vigil gave the event it forwarded.
  app = createServer((req, res) => {
    void client
      .withRequest(req)
      .trackAsync('login')
      .then((insights) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ handprint_id: insights.handprint_id, failOpen: insights.failOpen === true }));
      });
  });
  appUrl = await listen(app);
});

afterAll(async () => {
  if (app) await closeServer(app);
  await client?.close();
  await server?.stop();
});

/** The handprint of an end user's request through the Node backend. */
async function throughBackend(language: string): Promise<string> {
  const res = await postJson(`${appUrl}/login`, {}, { 'user-agent': UA, 'accept-language': language });
  expect(res.json.failOpen).toBe(false);
  return res.json.handprint_id;
}

/** The handprint of the same end user's request sent to Vigil directly. */
async function direct(language: string): Promise<string> {
  const res = await postJson(
    `${server.url}/events`,
    { event: 'login', properties: { ip_address: '127.0.0.1' } },
    { authorization: `Bearer ${server.writeKey}`, 'user-agent': UA, 'accept-language': language },
  );
  expect(res.status).toBe(200);
  return res.json.handprint_id;
}

describe('what a backend forwards on behalf of its end user', () => {
  it("gives the end user's language to the handprint, as a direct request does", async () => {
    const fr = await throughBackend('fr-FR,fr;q=0.9');
    const ja = await throughBackend('ja-JP,ja;q=0.9');
    expect(fr).not.toBe(ja);
    expect(await throughBackend('fr-FR')).toBe(fr);
    expect(await direct('fr-FR,fr;q=0.9')).toBe(fr);
    expect(await direct('ja-JP')).toBe(ja);
    expect(warnings).toEqual([]);
  });

  it("warns once through the logger when events go without the end user's IP", async () => {
    const backendOnly = vigil(server.url, { writeKey: server.writeKey, logger: { warn: (message) => warnings.push(message) } });
    await backendOnly.trackAsync('signup');
    await backendOnly.identify('ana@example.com').trackAsync('signup');
    await backendOnly.setIp('203.0.113.9').trackAsync('signup');
    await backendOnly.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/without the end user's IP/);
  });
});
