import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import type { DatabaseHandle } from './handle.js';
import { openDatabase } from './open.js';
import { preparedRows, sql } from './statement.js';

describe.each(testDrivers())('preparedRows on %s', (driver) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...testDb.env }).env, { migrate: true, purpose: 'test' });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('runs a statement as a named prepared statement of the connection, parsed once and run again with new parameters', async () => {
    const statement = (n: number) => sql`SELECT ${n}::int + 1 AS next, 'vigil-prepared-rows-test' AS tag`;
    // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
    const prepared = await database.db.transaction(async (tx) => {
      for (let n = 0; n < 8; n++) expect(await preparedRows<{ next: number }>(tx, statement(n))).toEqual([{ next: n + 1, tag: 'vigil-prepared-rows-test' }]);
      return preparedRows<{ name: string; calls: number }>(
        tx,
        sql`SELECT name, (generic_plans + custom_plans)::int AS calls FROM pg_prepared_statements WHERE statement LIKE ${'%vigil-prepared-rows-test%'}`,
      );
    });
    expect(prepared).toEqual([{ name: expect.stringMatching(/^vigil_[0-9a-f]{24}$/), calls: 8 }]);
  });
});
