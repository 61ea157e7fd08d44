import { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase, type TestDriver } from './databases.js';
import { migrationsHash } from './template.js';

/** The tables of a test database and the migrations drizzle recorded in it. */
async function inspect(driver: TestDriver, db: TestDatabase): Promise<{ tables: string[]; migrations: number }> {
  const tablesSql = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1";
  const migrationsSql = "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'drizzle'";
  if (driver === 'pglite') {
    const client = await PGlite.create(join(db.env.VIGIL_DATA_DIR!, 'pgdata'));
    try {
      const tables = (await client.query<{ table_name: string }>(tablesSql)).rows.map((r) => r.table_name);
      const hasJournal = (await client.query<{ n: number }>(migrationsSql)).rows[0]!.n > 0;
      const migrations = hasJournal ? (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).rows[0]!.n : 0;
      return { tables, migrations };
    } finally {
      await client.close();
    }
  }
  const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
  await client.connect();
  try {
    const tables = (await client.query<{ table_name: string }>(tablesSql)).rows.map((r) => r.table_name);
    const hasJournal = (await client.query<{ n: number }>(migrationsSql)).rows[0]!.n > 0;
    const migrations = hasJournal ? (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).rows[0]!.n : 0;
    return { tables, migrations };
  } finally {
    await client.end();
  }
}

describe.each(testDrivers())('test databases on %s', (driver) => {
  const made: TestDatabase[] = [];
  afterAll(async () => Promise.all(made.map((db) => db.drop())));

  it('are copies of the migrated template, each its own', async () => {
    const [a, b] = [await createTestDatabase(driver), await createTestDatabase(driver)];
    made.push(a!, b!);
    const seenA = await inspect(driver, a!);
    expect(seenA.tables).toContain('events');
    expect(seenA.migrations).toBeGreaterThan(0);
    expect(await inspect(driver, b!)).toEqual(seenA);
    expect(a!.env).not.toEqual(b!.env);
  });

  it('are empty when asked (tests of the migrations themselves)', async () => {
    const db = await createTestDatabase(driver, { migrated: false });
    made.push(db);
    expect(await inspect(driver, db)).toEqual({ tables: [], migrations: 0 });
  });
});

describe('the template name', () => {
  it('is a hash of the migrations, stable within a run', () => {
    expect(migrationsHash()).toMatch(/^[0-9a-f]{12}$/);
    expect(migrationsHash()).toBe(migrationsHash());
  });
});
