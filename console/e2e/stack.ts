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

/** A stack and a Chromium started side by side (startStackAndBrowser). */
export interface Started {
  /** Both, or the error of the one that failed (of both: an AggregateError); the other is then closed. */
  ready: Promise<[Stack, Browser]>;
  /** Closes both, including one that comes up only after this is called. */
  stop(): Promise<void>;
}

/**
 * A suite's afterAll cannot close what its beforeAll never got: not the half of a start that failed, nor either half
 * when the hook timed out before they came up. An open Chromium holds the network lock and a stack its ports and
 * processes until the test process ends, so each half is closed once the suite is done with it, whenever it comes up.
 */
export function startStackAndBrowser(devices: number): Started {
  const stack = startStack(devices);
  const browser = sayingWhereSlow('Chromium', () => launchChromium());
  let closing: Promise<void> | undefined;
  const closeBoth = () =>
    (closing ??= Promise.allSettled([stack, browser]).then(async ([s, b]) => {
      const closed = await Promise.allSettled([s.status === 'fulfilled' && s.value.stop(), b.status === 'fulfilled' && b.value.close()]);
      for (const c of closed) if (c.status === 'rejected') console.warn('e2e: closing the stack or Chromium failed:', c.reason);
    }));
  const ready = Promise.allSettled([stack, browser]).then(([s, b]) => {
    if (s.status === 'fulfilled' && b.status === 'fulfilled') return [s.value, b.value] as [Stack, Browser];
    void closeBoth();
    const errors = [s, b].flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'neither the e2e stack nor Chromium started');
  });
  // Whoever awaits it still gets the error; after a timed-out hook nobody does, and it is no new failure.
  ready.catch(() => {});
  return { ready, stop: closeBoth };
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
