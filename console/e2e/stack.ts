import { cli, prepareDataDir, startConsole, startVigil, type Running, type VigilServer } from './processes';
import { seed, type Seed } from './seed';

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
  stop(): Promise<void>;
}

async function account(env: NodeJS.ProcessEnv, username: string, role: string): Promise<Account> {
  const created = JSON.parse(await cli(['supervisors', 'create', '--username', username, '--role', role, '--json'], env)) as { password: string };
  return { username, password: created.password };
}

async function key(env: NodeJS.ProcessEnv, kind: 'client' | 'write'): Promise<string> {
  return (JSON.parse(await cli(['keys', 'create', '--kind', kind, '--name', `seed ${kind}`, '--json'], env)) as { key: string }).key;
}

/**
 * The real thing, end to end: accounts and keys made with the `vigil` CLI on a fresh embedded database, the real
 * server, thousands of devices registered through its device routes, and the built console in front of it.
 */
export async function startStack(devices: number): Promise<Stack> {
  const data = await prepareDataDir();
  const env = data.env;
  const admin = await account(env, 'e2e-admin', 'admin');
  const supervisor = await account(env, 'e2e-supervisor', 'supervisor');
  const viewer = await account(env, 'e2e-viewer', 'viewer');
  const keys = { client: await key(env, 'client'), write: await key(env, 'write') };
  const vigil = await startVigil(env);
  let consoleApp: Running | null = null;
  try {
    const [seeded, started] = await Promise.all([seed(vigil.url, keys, devices), startConsole(vigil.url)]);
    consoleApp = started;
    return {
      vigil,
      console: started,
      admin,
      supervisor,
      viewer,
      keys,
      seeded,
      async stop() {
        await started.stop();
        await vigil.stop();
        await data.cleanup();
      },
    };
  } catch (error) {
    await consoleApp?.stop();
    await vigil.stop();
    await data.cleanup();
    throw error;
  }
}
