import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { VigilError } from '../errors.js';
import { reportingPool } from './reporting-pool.js';
import { sessionKeepingPool } from './session-pool.js';

/**
 * On a real PostgreSQL: a statement PostgreSQL refuses leaves its connection in the pool, while a session that ended
 * is replaced. One connection per pool, so "the same backend" means the connection was kept.
 */
describe.runIf(testDrivers().includes('postgres'))('the session-keeping pool', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof sessionKeepingPool>;

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { migrated: false });
  });
  afterEach(async () => {
    await pool?.end();
  });
  afterAll(async () => {
    await database?.drop();
  });

  // As open.ts does: a session that ends while its client is idle or checked out is an event, not a crash.
  const listen = <P extends pg.Pool>(made: P) => {
    made.on('error', () => {});
    made.on('connect', (client) => client.on('error', () => {}));
    return made;
  };
  const open = () => {
    pool = listen(sessionKeepingPool(pg, { connectionString: database.env.DATABASE_URL, max: 1 }));
    return pool;
  };
  const backend = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('keeps the connection of a statement refused with an ERROR, whatever the refusal', async () => {
    open();
    const pid = await backend();
    const refusals = [
      'SELECT 1 / 0',
      "DO $$ BEGIN RAISE EXCEPTION 'cached facts are stale' USING ERRCODE = 'VGS01'; END $$",
      "SELECT 'not a number'::int",
      'SELECT * FROM no_such_table',
      // The reporting pool's statement_timeout: a cancelled statement is no broken session.
      "SET statement_timeout = '20ms'; SELECT pg_sleep(1)",
    ];
    for (const statement of refusals) await expect(pool.query(statement)).rejects.toMatchObject({ code: expect.any(String) });
    expect(await backend()).toBe(pid);
    expect(pool.stats).toMatchObject({ opened: 1, total: 1 });
  });

  it('keeps a named statement prepared after its execution failed, so it is not parsed again', async () => {
    open();
    const divide = (by: number) => pool.query({ name: 'divide', text: 'SELECT 10 / $1::int AS q', values: [by] });
    await expect(divide(0)).rejects.toMatchObject({ code: '22012' });
    expect((await divide(5)).rows).toEqual([{ q: 2 }]);
    const prepared = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'divide'");
    expect(prepared.rows[0]!.n).toBe(1);
    expect(pool.stats.opened).toBe(1);
  });

  it('replaces a connection whose session was ended, and answers on a new one', async () => {
    open();
    const pid = await backend();
    const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    // The pool may learn of the end while the connection idles (and drop it then) or from the next statement,
    // which fails with the server's FATAL; either way the statement after that runs on a new backend.
    await pool.query('SELECT 1').catch(() => {});
    const next = await backend();
    expect(next).not.toBe(pid);
    expect(pool.stats.opened).toBe(2);
  });

  it('drops a connection whose statement the client gave up on, since it may still be running', async () => {
    open();
    const pid = await backend();
    await expect(pool.query({ text: 'SELECT pg_sleep(0.5)', query_timeout: 50 } as pg.QueryConfig)).rejects.toThrow(/timeout/i);
    expect(await backend()).not.toBe(pid);
  });

  it('keeps the reporting connection of a read its statement_timeout cancelled, which the caller gets translated', async () => {
    pool = listen(reportingPool((config) => sessionKeepingPool(pg, config), { connectionString: database.env.DATABASE_URL, max: 1, statement_timeout: 50 }));
    const pid = await backend();
    // A client once checked out (a transaction, a streamed export) translates its failures from then on.
    (await pool.connect()).release();
    const cancelled = pool.query('SELECT pg_sleep(1)');
    await expect(cancelled).rejects.toBeInstanceOf(VigilError);
    await expect(cancelled).rejects.toMatchObject({ code: 'query_too_expensive' });
    expect(await backend()).toBe(pid);
    expect(pool.stats.opened).toBe(1);
  });

  it('leaves the callback form to pg-pool', async () => {
    open();
    const rows = await new Promise<unknown[]>((resolve, reject) =>
      pool.query('SELECT 1 AS one', (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result.rows))),
    );
    expect(rows).toEqual([{ one: 1 }]);
  });
});
