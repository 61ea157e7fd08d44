import { expect, it } from 'vitest';
import { KeyStore } from '../auth/key-store.js';
import type { TestVigil } from './harness.js';
import { request } from './harness.js';

export interface AuthCaseOptions {
  method: 'GET' | 'POST';
  path: string;
  /** A body the route accepts. */
  body?: unknown;
  /** Key kinds the route accepts; the others must get 403. */
  accepts: ('write' | 'client')[];
  /** Status of an authorised, valid request. */
  okStatus?: number;
}

/**
 * The security cases every authenticated route must pass, generated from one place so no route forgets one:
 * happy path per accepted kind, missing/malformed/unknown/revoked credentials (401 with a challenge) and the
 * wrong kind (403).
 */
export function authCases(server: () => TestVigil, options: AuthCaseOptions): void {
  const send = (headers: Record<string, string>) =>
    request(server().url + options.path, {
      method: options.method,
      headers: { 'content-type': 'application/json', ...headers },
      body: options.method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
    });
  const keyOf = (kind: 'write' | 'client') => (kind === 'write' ? server().writeKey : server().clientKey);
  const label = `${options.method} ${options.path}`;

  for (const kind of options.accepts) {
    it(`${label} accepts a ${kind} key`, async () => {
      const res = await send({ authorization: `Bearer ${keyOf(kind)}` });
      expect(res.status).toBe(options.okStatus ?? 200);
    });
  }
  for (const kind of (['write', 'client'] as const).filter((k) => !options.accepts.includes(k))) {
    it(`${label} refuses a ${kind} key with 403`, async () => {
      const res = await send({ authorization: `Bearer ${keyOf(kind)}` });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('forbidden');
    });
  }
  const refusals: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['an unknown key', { authorization: 'Bearer vigil_wk_ThisKeyDoesNotExist000000000000' }],
  ];
  for (const [what, headers] of refusals) {
    it(`${label} refuses ${what} with 401 and a Bearer challenge`, async () => {
      const res = await send(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', type: '/problems/unauthorized' });
    });
  }
  it(`${label} refuses a revoked key at once`, async () => {
    const keys = new KeyStore(server().database);
    const kind = options.accepts[0]!;
    const created = await keys.create(kind, 'to revoke');
    expect((await send({ authorization: `Bearer ${created.key}` })).status).toBe(options.okStatus ?? 200);
    // Revoked through the running server's own store, whose cache now holds the key.
    await server().vigil.keys.revoke(created.id);
    const res = await send({ authorization: `Bearer ${created.key}` });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });
}
