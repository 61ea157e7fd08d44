import { withClient } from '../test-support/databases.js';
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
    await withClient(server.url, (c) => c.query('CREATE DATABASE vigil'));
    direct = server.url.replace(/\/postgres$/, '/vigil');
    // Session mode gives each client connection a server connection of its own for as long as it lives: the pool
    // must hold every process's pools and LISTEN connections (2 × (4 + 1 + 6), as "Running at scale" counts them),
    // plus a CLI command's (4 + 1), and a few to spare (a LISTEN connection re-made while PgBouncer still holds the
    // old one). With 20 a report waited for a connection until its connect timeout (503).
    pgbouncer = bouncer ? await startPgbouncer(direct, 'session', 2 * (4 + 1 + 6) + 5 + 5) : undefined;
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

  const storedEvents = () => withClient(direct, async (c) => (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n);

  it('both accept events, concurrently on the same devices and identities, and store each once', async () => {
    const key = JSON.parse((await runCli(['keys', 'create', '--kind', 'write', '--name', 'nodes', '--json'], env)).stdout).key;
    const before = await storedEvents();
    const statuses = await Promise.all(Array.from({ length: 120 }, async (_, n) => (await post(nodes[n % 2]!, key, n)).status));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // A retry of an answered event on the other process counts once.
    expect((await post(nodes[1]!, key, 0)).status).toBe(200);
    expect(await storedEvents()).toBe(before + 120);
  });

  it('agree on every registry move made on the other, in the very next event', async () => {
    const created = async (args: string[]) => JSON.parse((await runCli([...args, '--json'], env)).stdout);
    const write = (await created(['keys', 'create', '--kind', 'write', '--name', 'moves'])).key as string;
    const client = (await created(['keys', 'create', '--kind', 'client', '--name', 'moves-app'])).key as string;
    await created(['supervisors', 'create', '--username', 'boss', '--role', 'supervisor']);
    const token = (await created(['tokens', 'create', '--username', 'boss'])).token as string;
    const [mover, answerer] = nodes as [ServeProcess, ServeProcess];
    const call = async (path: string, key: string, body: unknown) => {
      const res = await fetch(`${mover.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return res.json();
    };
    // Each answer comes from the other process, which has the device's facts in its cache from the events before.
    const device = async (deviceId: string, identity: string) => {
      const res = await fetch(`${answerer.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'login', identity, properties: { device_id: deviceId } }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { device: Record<string, unknown> }).device;
    };
    for (const id of ['move-1', 'move-2']) {
      await device(id, 'ana@example.com');
      expect(await device(id, 'ana@example.com')).toMatchObject({ status: 'unregistered' });
      await call(`/devices/${id}/register`, client, { user_id: 'ana' });
      expect(await device(id, 'ana@example.com')).toMatchObject({ status: 'active', registered_to: 'ana' });
    }
    await call('/devices/move-1/deactivate', client, { reason: 'lost' });
    expect(await device('move-1', 'ana@example.com')).toMatchObject({ status: 'deactivated', is_trusted: false });
    await call('/api/devices/move-1/transfer', token, { new_user_id: 'bo', by: 'boss' });
    expect(await device('move-1', 'bo@example.com')).toMatchObject({ status: 'deactivated', registered_to: 'bo' });
    await call('/api/devices/move-1/reactivate', token, { reason: 'found', by: 'boss' });
    expect(await device('move-1', 'bo@example.com')).toMatchObject({ status: 'active', registered_to: 'bo', is_trusted: true });
    await call('/api/devices/transfer', token, { device_ids: ['move-1', 'move-2'], new_user_id: 'cy', by: 'boss' });
    for (const id of ['move-1', 'move-2']) expect(await device(id, 'cy@example.com')).toMatchObject({ registered_to: 'cy' });
    await call('/api/devices/deactivate', token, { device_ids: ['move-1', 'move-2'], reason: 'audit', by: 'boss' });
    for (const id of ['move-1', 'move-2']) expect(await device(id, 'cy@example.com')).toMatchObject({ status: 'deactivated' });
    const moved = await call('/graphql', token, { query: 'mutation { transferDevice(deviceId: "move-2", newUserId: "di", by: "boss") { id } }' });
    expect(moved).not.toHaveProperty('errors');
    expect(await device('move-2', 'di@example.com')).toMatchObject({ status: 'deactivated', registered_to: 'di' });
    // Every connection says whose it is in pg_stat_activity (README, "Running at scale").
    const named = await withClient(direct, (c) =>
      c.query<{ name: string }>(`SELECT DISTINCT application_name AS name FROM pg_stat_activity WHERE datname = 'vigil' AND query LIKE 'LISTEN %' ORDER BY 1`),
    );
    expect(named.rows.map((r) => r.name)).toEqual(['vigil-listen']);
    // Reports (their own connections, with a statement timeout) read the moves on either process.
    for (const node of nodes) {
      const res = await fetch(`${node.url}/api/devices/move-2`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ user_id: 'di', status: 'deactivated' });
    }
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
