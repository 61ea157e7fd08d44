import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { openDatabase, PGLITE_COMMIT_CONCURRENCY } from './open.js';

/** How many group commits each database lets ingestion run at once (the Ingestor's GroupCommitter takes it as is). */
describe.each(testDrivers())('group commits in flight on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => db?.drop());

  const concurrency = async (env: Record<string, string>) => {
    const database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...db.env, ...env }).env, { migrate: false, purpose: 'test' });
    try {
      return database.maxConcurrency;
    } finally {
      await database.close();
    }
  };

  it('follows VIGIL_COMMIT_CONCURRENCY within what the database can overlap', async () => {
    if (driver === 'pglite') {
      // One connection: one commit's statements on PGlite's thread while the other's batch is evaluated.
      expect(PGLITE_COMMIT_CONCURRENCY).toBe(2);
      expect(await concurrency({})).toBe(2);
      expect(await concurrency({ VIGIL_COMMIT_CONCURRENCY: '8' })).toBe(2);
    } else {
      expect(await concurrency({})).toBe(4);
      // A connection of the pool stays free for everything that is not a group commit.
      expect(await concurrency({ VIGIL_COMMIT_CONCURRENCY: '8', VIGIL_DB_POOL_SIZE: '5' })).toBe(4);
    }
    expect(await concurrency({ VIGIL_COMMIT_CONCURRENCY: '1' })).toBe(1);
  });
});
