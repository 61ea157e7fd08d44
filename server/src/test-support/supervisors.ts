import { SupervisorStore } from '../auth/supervisor-store.js';
import type { SupervisorRole } from '../auth/roles.js';
import type { TestVigil } from './harness.js';
import { request, type TestResponse } from './harness.js';

export interface TestAccount {
  id: string;
  username: string;
  password: string;
  role: SupervisorRole;
  token: string;
  tokenId: string;
}

const accounts = new WeakMap<TestVigil, Promise<Record<SupervisorRole, TestAccount>>>();
let serial = 0;

/** One account and API token per role on this server, created once per server. */
export function supervisorAccounts(server: TestVigil): Promise<Record<SupervisorRole, TestAccount>> {
  let found = accounts.get(server);
  if (!found) {
    found = (async () => {
      const out = {} as Record<SupervisorRole, TestAccount>;
      for (const role of ['admin', 'supervisor', 'viewer'] as const) out[role] = await createAccount(server, role);
      return out;
    })();
    accounts.set(server, found);
  }
  return found;
}

export async function createAccount(server: TestVigil, role: SupervisorRole, username = `test-${role}-${++serial}-${process.pid}`): Promise<TestAccount> {
  const store = new SupervisorStore(server.database);
  const created = await store.create(username, role);
  const token = await store.createToken(created.supervisor.id, `${role} test token`);
  return { id: created.supervisor.id, username, password: created.password, role, token: token.token, tokenId: token.id };
}

/** A console session of the account, as POST /api/auth/login opens one. */
export async function openSession(server: TestVigil, account: TestAccount, ttlMs = 60_000): Promise<{ id: string; token: string }> {
  const session = await new SupervisorStore(server.database).login(account.username, account.password, ttlMs);
  if (!session.ok) throw new Error(`${account.username} could not sign in: ${session.reason}`);
  return { id: session.id, token: session.token };
}

/** JSON request with a supervisor credential. */
export function supervisorRequest(server: TestVigil, method: 'GET' | 'POST', path: string, token: string | null, body?: unknown): Promise<TestResponse> {
  return request(server.url + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A GraphQL operation over real HTTP, as any GraphQL client sends it. */
export function graphql(server: TestVigil, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<TestResponse> {
  return supervisorRequest(server, 'POST', '/graphql', token, { query, variables });
}
