import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { cli, prepareDatabase, startConsole, startVigil, type Running, type VigilServer } from './processes';
import { seed, type Seed } from './seed';
import { sayingWhereSlow } from './slow';

export interface Account {
  username: string;
  password: string;
}

export interface Stack {
  vigil: VigilServer;
  console: Running;
  admin: Account;
  supervisor: Account;
  viewer: Account;
  keys: { client: string; write: string };
  seeded: Seed;
  database: 'postgresql' | 'pglite';
  stop(): Promise<void>;
}

/**
 * How long a suite's stack may take to come up. Alone it takes 11-16 s; under `make test`, beside the server's two
 * test passes, 38-45 s, and 134-188 s when this suite ran niced there. The limit is a hang detector, not a speed
 * check: sayingWhereSlow logs which step a slow start is at.
 */
export const STACK_START_TIMEOUT_MS = 420_000;

/** Runs one GraphQL operation against the real server with a supervisor's session. */
export async function graphqlAs(api: string, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${api}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, any>; errors?: { message: string; extensions?: { code?: string } }[] };
}

async function login(api: string, account: Account): Promise<string> {
  const response = await fetch(`${api}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (response.status !== 200) throw new Error(`login ${account.username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The real thing, end to end: the first admin made with the `vigil` CLI on a fresh embedded database, the real
 * server, the other accounts and the keys made by that admin through GraphQL, thousands of devices registered
 * through the device routes, and the built console (`next start`) in front of it.
 */
export function startStack(devices: number): Promise<Stack> {
  return sayingWhereSlow('e2e stack', (step) => startStackSteps(devices, step));
}

/**
 * The stack and a Chromium, started side by side. When either fails the other is closed before the error is thrown:
 * a suite's afterAll cannot close what its beforeAll never got, and an open Chromium holds the network lock (a stack,
 * its ports and processes) until the test process ends.
 */
export async function startStackAndBrowser(devices: number): Promise<[Stack, Browser]> {
  const [stack, browser] = await Promise.allSettled([startStack(devices), sayingWhereSlow('Chromium', () => launchChromium())]);
  if (stack.status === 'fulfilled' && browser.status === 'fulfilled') return [stack.value, browser.value];
  await Promise.allSettled([stack.status === 'fulfilled' && stack.value.stop(), browser.status === 'fulfilled' && browser.value.close()]);
  throw stack.status === 'rejected' ? stack.reason : (browser as PromiseRejectedResult).reason;
}

async function startStackSteps(devices: number, step: (name: string) => void): Promise<Stack> {
  step('database');
  const data = await prepareDatabase();
  step('first admin (vigil supervisors create)');
  const created = JSON.parse(await cli(['supervisors', 'create', '--username', 'e2e-admin', '--role', 'admin', '--json'], data.env)) as { password: string };
  const admin = { username: 'e2e-admin', password: created.password };
  step('vigil serve');
  const vigil = await startVigil(data.env);
  let consoleApp: Running | null = null;
  try {
    const consoleStarting = startConsole(vigil.url).then((c) => (consoleApp = c));
    step('accounts and keys');
    const token = await login(vigil.url, admin);
    const account = async (username: string, role: 'SUPERVISOR' | 'VIEWER'): Promise<Account> => {
      const answer = await graphqlAs(vigil.url, token, 'mutation($u: String!, $r: SupervisorRole!) { createSupervisor(username: $u, role: $r) { password } }', {
        u: username,
        r: role,
      });
      if (!answer.data) throw new Error(`createSupervisor: ${JSON.stringify(answer.errors)}`);
      return { username, password: answer.data.createSupervisor.password };
    };
    const key = async (kind: 'CLIENT' | 'WRITE'): Promise<string> => {
      const answer = await graphqlAs(vigil.url, token, 'mutation($k: KeyKind!, $n: String!) { createKey(kind: $k, name: $n) { secret } }', {
        k: kind,
        n: `seed ${kind.toLowerCase()}`,
      });
      if (!answer.data) throw new Error(`createKey: ${JSON.stringify(answer.errors)}`);
      return answer.data.createKey.secret;
    };
    const supervisor = await account('e2e-supervisor', 'SUPERVISOR');
    const viewer = await account('e2e-viewer', 'VIEWER');
    const keys = { client: await key('CLIENT'), write: await key('WRITE') };
    step(`seeding ${devices} devices and their events (the console starting meanwhile)`);
    const seeding = seed(vigil.url, keys, devices).then((done) => (step('the console (next start)'), done));
    const [seeded, started] = await Promise.all([seeding, consoleStarting]);
    return {
      vigil,
      console: started,
      admin,
      supervisor,
      viewer,
      keys,
      seeded,
      database: data.kind,
      async stop() {
        await started.stop();
        await vigil.stop();
        await data.cleanup();
      },
    };
  } catch (error) {
    await (consoleApp as Running | null)?.stop();
    await vigil.stop();
    await data.cleanup();
    throw error;
  }
}
