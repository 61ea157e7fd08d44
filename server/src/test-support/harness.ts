import { KeyStore } from '../auth/key-store.js';
import { lowerPasswordCostForTests } from '../auth/password.js';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle, Driver } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { createVigil, type Vigil } from '../vigil.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export interface TestVigil {
  url: string;
  vigil: Vigil;
  database: DatabaseHandle;
  writeKey: string;
  clientKey: string;
  /** POST JSON with a key; returns status, headers and parsed body. */
  post(path: string, body: unknown, options?: { key?: string | null; headers?: Record<string, string> }): Promise<TestResponse>;
  get(path: string, options?: { key?: string | null }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function request(url: string, init: RequestInit): Promise<TestResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** A real Vigil (real database, real HTTP on a loopback port) for one suite. */
export async function startTestVigil(driver: Driver, env: Record<string, string> = {}, testDb?: TestDatabase): Promise<TestVigil> {
  // The suites' accounts and sessions at a cheaper scrypt cost; auth/password.test.ts covers the production one.
  lowerPasswordCostForTests();
  const db = testDb ?? (await createTestDatabase(driver));
  const config = loadConfig({ VIGIL_LOG_LEVEL: 'silent', PORT: '0', ...db.env, ...env });
  const database = await openDatabase(config.env, { migrate: true, purpose: 'vigil test' });
  const vigil = await createVigil(config, { database, logger: false });
  const keys = new KeyStore(database);
  const writeKey = (await keys.create('write', 'test write')).key;
  const clientKey = (await keys.create('client', 'test client')).key;
  await vigil.app.listen({ port: 0, host: '127.0.0.1' });
  const address = vigil.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const auth = (key: string | null | undefined): Record<string, string> => (key === null ? {} : { authorization: `Bearer ${key ?? writeKey}` });
  return {
    url,
    vigil,
    database,
    writeKey,
    clientKey,
    post: (path, body, options = {}) =>
      request(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(options.key), ...options.headers },
        body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
      }),
    get: (path, options = {}) => request(url + path, { headers: auth(options.key) }),
    async close() {
      await vigil.close();
      // A test may have closed the database on purpose to provoke failures.
      await database.close().catch(() => {});
      if (!testDb) await db.drop();
    },
  };
}
