import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers, withClient, type TestDatabase } from '../test-support/databases.js';
import { factCacheCommits } from '../test-support/metrics.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { startPostgresServer } from '../test-support/postgres-server.js';
import { autovacuumIds } from './autovacuum.js';

/**
 * A real autovacuum ANALYZE held under way: its worker takes an id to write the statistics of `probe`, and waits for
 * their rows, which the test holds. On a server of its own where autovacuum visits only `probe` (every other table's
 * thresholds are out of reach), every second.
 */
describe.runIf(testDrivers().includes('postgres'))('fact cache beside autovacuum (postgres)', () => {
  let db: TestDatabase;
  let url: string;
  let server: TestVigil;

  beforeAll(async () => {
    const postgres = await startPostgresServer();
    url = postgres.url;
    db = { env: { DATABASE_URL: url }, drop: () => postgres.destroy() };
    await withClient(url, async (c) => {
      for (const threshold of ['autovacuum_analyze_threshold', 'autovacuum_vacuum_threshold', 'autovacuum_vacuum_insert_threshold']) {
        await c.query(`ALTER SYSTEM SET ${threshold} = 2000000000`);
      }
      await c.query('ALTER SYSTEM SET autovacuum_naptime = 1');
      await c.query('SELECT pg_reload_conf()');
      await c.query('CREATE TABLE probe (n int) WITH (autovacuum_analyze_threshold = 0, autovacuum_analyze_scale_factor = 0)');
      await c.query('INSERT INTO probe SELECT generate_series(1, 100)');
      await c.query('ANALYZE probe');
    });
    // Key usage is written only when a test asks: its timer's writes would land between the test's commits.
    server = await startTestVigil('postgres', { VIGIL_KEY_USAGE_FLUSH_SECONDS: '3600' }, db);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const send = async () => {
    // After the announcements of the earlier events, each a transaction of its own (see fact-cache.integration.test.ts).
    await server.vigil.feed.flush();
    const res = await server.post('/events', { event: 'login', identity: 'vera@example.com', properties: { device_id: 'vacuumed-dev' } });
    expect(res.status).toBe(200);
  };
  /** The id of an autovacuum worker's transaction under way, if one is. */
  const workerXid = () =>
    withClient(url, async (c) => {
      const found = await c.query<{ x: string }>(
        `SELECT backend_xid::text AS x FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND backend_xid IS NOT NULL`,
      );
      return found.rows[0] ? BigInt(found.rows[0].x) : undefined;
    });

  it('goes on proving while autovacuum analyzes, the database naming its id', async () => {
    const facts = server.vigil.facts;
    await withClient(url, async (locker) => {
      await locker.query('BEGIN');
      const lockerXid = BigInt((await locker.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x);
      facts.apart(lockerXid); // changes no fact, and is told so, as this process's own would be
      await locker.query(`SELECT 1 FROM pg_statistic WHERE starelid = 'probe'::regclass FOR UPDATE`);
      try {
        await withClient(url, (c) => c.query('INSERT INTO probe VALUES (101)'));
        await expect.poll(workerXid, { timeout: 30_000, interval: 100 }).toBeDefined();
        const worker = (await workerXid())!;
        expect(await autovacuumIds(server.database.db)([worker, lockerXid])).toEqual([worker]);

        // Every commit from here sees the worker under way; the first asks the database whose id it is.
        for (let i = 0; i < 4; i++) await send();
        const before = await factCacheCommits(server);
        await send();
        expect((await factCacheCommits(server)).unchecked, 'written with a proof while the worker is under way').toBe(before.unchecked + 1);
      } finally {
        await locker.query('ROLLBACK');
      }
    });
    await expect.poll(workerXid, { timeout: 30_000, interval: 100 }).toBeUndefined();
    const before = await factCacheCommits(server);
    await send();
    expect((await factCacheCommits(server)).unchecked, 'written with a proof after the worker committed').toBe(before.unchecked + 1);
  });

  it('names no transaction of a client, whatever it writes', async () => {
    await withClient(url, async (c) => {
      await c.query('BEGIN');
      const xid = BigInt((await c.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x);
      expect(await autovacuumIds(server.database.db)([xid])).toEqual([]);
      await c.query('ROLLBACK');
    });
  });
});
