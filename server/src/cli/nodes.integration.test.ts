import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe, type ServeProcess } from '../test-support/cli.js';
import { startPgbouncer, type Pgbouncer } from '../test-support/pgbouncer.js';
import { startPostgresServer, type PostgresServer } from '../test-support/postgres-server.js';

/**
 * Several `vigil serve` processes (real child processes) on one PostgreSQL, as behind a load balancer: directly,
 * and through Debian's PgBouncer in session mode. (Transaction mode does not work: see "Running at scale".)
 */
describe.each([
  { route: 'directly', bouncer: false },
  { route: 'through PgBouncer in session mode', bouncer: true },
])('two Vigil processes on one PostgreSQL, $route', ({ bouncer }) => {
  let server: PostgresServer;
  let pgbouncer: Pgbouncer | undefined;
  let nodes: ServeProcess[] = [];
  let env: Record<string, string>;
  let direct: string;

  beforeAll(async () => {
    assertBuilt();
    server = await startPostgresServer();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE vigil');
    await admin.end();
    direct = server.url.replace(/\/postgres$/, '/vigil');
    // Session mode gives each client connection a server connection of its own for as long as it lives: the pool
    // must hold every process's pools and LISTEN connections (2 × (4 + 1 + 2)), plus the CLI's.
    pgbouncer = bouncer ? await startPgbouncer(direct, 'session', 20) : undefined;
    env = { DATABASE_URL: pgbouncer?.url ?? direct, VIGIL_DB_POOL_SIZE: '4', VIGIL_DB_REPORTING_POOL_SIZE: '1' };
    // Both start at once on an empty database: one migrates, the other waits for it (advisory lock).
    nodes = await Promise.all([startServe(env), startServe(env)]);
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await pgbouncer?.stop();
    await server?.destroy();
  });

  const post = (node: ServeProcess, key: string, n: number) =>
    fetch(`${node.url}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'login', identity: `user-${n % 7}`, properties: { device_id: `dev-${n % 5}`, event_id: `e-${key.slice(-6)}-${n}` } }),
    });

  async function storedEvents(): Promise<number> {
    const client = new pg.Client({ connectionString: direct });
    await client.connect();
    try {
      return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    } finally {
      await client.end();
    }
  }

  it('both accept events, concurrently on the same devices and identities, and store each once', async () => {
    const key = JSON.parse((await runCli(['keys', 'create', '--kind', 'write', '--name', 'nodes', '--json'], env)).stdout).key;
    const before = await storedEvents();
    const statuses = await Promise.all(Array.from({ length: 120 }, async (_, n) => (await post(nodes[n % 2]!, key, n)).status));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // A retry of an answered event on the other process counts once.
    expect((await post(nodes[1]!, key, 0)).status).toBe(200);
    expect(await storedEvents()).toBe(before + 120);
  });

  it('agree on a key revocation made by a third process', async () => {
    const created = JSON.parse((await runCli(['keys', 'create', '--kind', 'write', '--name', 'to-revoke', '--json'], env)).stdout);
    // Each process has the key in its cache before it is revoked.
    for (const node of nodes) expect((await post(node, created.key, 1)).status).toBe(200);
    expect((await runCli(['keys', 'revoke', created.id], env)).code).toBe(0);
    // The revocation reaches every process by NOTIFY; polled, since the notification is asynchronous.
    for (const node of nodes) {
      const deadline = Date.now() + 10_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await post(node, created.key, 2)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(401);
    }
  });
});
