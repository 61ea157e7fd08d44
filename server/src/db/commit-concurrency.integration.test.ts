import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import type { DatabaseHandle } from './handle.js';
import { openDatabase, PGLITE_COMMIT_CONCURRENCY } from './open.js';

/** How many group commits each database lets ingestion run at once (the Ingestor's GroupCommitter takes it as is). */
describe.each(testDrivers())('group commits in flight on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => db?.drop());

  const opened = async <T>(env: Record<string, string>, read: (database: DatabaseHandle) => T) => {
    const database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...db.env, ...env }).env, { migrate: false, purpose: 'test' });
    try {
      return read(database);
    } finally {
      await database.close();
    }
  };
  const concurrency = (env: Record<string, string>) => opened(env, (d) => d.maxConcurrency);

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

  it('carries VIGIL_COMMIT_OVERLAP_MS to the group commits (default 50)', async () => {
    const overlap = (env: Record<string, string>) => opened(env, (d) => d.commitOverlapMs);
    expect(await overlap({})).toBe(50);
    expect(await overlap({ VIGIL_COMMIT_OVERLAP_MS: '0' })).toBe(0);
  });
});
