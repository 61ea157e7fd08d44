import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableCounts } from '../backup/tables.js';
import { writeConfig } from '../behaviors/test-config.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { assertBuilt, runCli } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { mountSmallDisk } from '../test-support/small-disk.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';

beforeAll(() => assertBuilt());

const DAY = 86_400_000;
const behaviors = [{ name: 'logins_by_identity', group_by: 'identity', operation: 'count', window_duration_seconds: 86_400 * 30 }];

async function countsOf(env: Record<string, string>): Promise<Record<string, number>> {
  const database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...env }).env, { migrate: false, purpose: 'test counts' });
  try {
    return await tableCounts(database.db);
  } finally {
    await database.close();
  }
}

describe.each(testDrivers())('vigil backup and vigil restore on %s', (driver) => {
  let server: TestVigil | undefined;
  let source: TestDatabase;
  let target: TestDatabase;
  let counts: Record<string, number>;
  const dir = mkdtempSync(join(tmpdir(), 'vigil-backup-'));
  const file = join(dir, 'vigil.backup');

  beforeAll(async () => {
    source = await createTestDatabase(driver);
    // Restore wants an empty target, not a copy of the migrated template.
    target = await createTestDatabase(driver, { migrated: false });
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors }) }, source);
    // Events over several months (several partitions), a registration, counters, contact sightings.
    for (let i = 0; i < 20; i++) {
      const res = await server.post('/events', {
        event: 'login',
        identity: `user-${i % 4}`,
        properties: { device_id: `dev-${i % 5}`, email: `u${i % 4}@example.org`, timestamp: new Date(Date.now() - i * 9 * DAY).toISOString() },
      });
      expect(res.status, res.text).toBe(200);
    }
    expect((await server.post('/devices/dev-1/register', { user_id: 'user-1', metadata: { branch: 'north' } })).status).toBe(200);
    counts = await tableCounts(server.database.db);
  });
  afterAll(async () => {
    await server?.close();
    await source?.drop();
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  if (driver === 'pglite') {
    it('refuses to back up while a server holds the PGlite directory, saying what to do', async () => {
      const res = await runCli(['backup', '--to', file], source.env);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`is in use by process ${process.pid}`);
      expect(res.stderr).toContain('stop the server, run `vigil backup` again, then start the server');
      await server!.close();
      server = undefined;
    });
  }

  it('backs up (on PostgreSQL while the server runs) and restores into an empty instance with the same counts in every table', async () => {
    const backup = await runCli(['backup', '--to', file], source.env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toContain('backup written');
    const restore = await runCli(['restore', '--from', file], target.env);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`Restored ${file} (${driver})`);
    const restored = await countsOf(target.env);
    // Every table, partitions one by one, with rows in the ones that matter.
    expect(restored).toEqual(counts);
    expect(Object.keys(restored).filter((t) => t.startsWith('events_p')).length).toBeGreaterThan(1);
    expect(restored.events).toBe(20);
    expect(restored.registrations).toBe(1);
    expect(restored.behavior_buckets).toBeGreaterThan(0);
    expect(restored['drizzle.__drizzle_migrations']).toBeGreaterThan(0);
  });

  it("fails saying so when the backup disk is full, and leaves no file at the backup's name", async () => {
    const disk = await mountSmallDisk(1);
    try {
      disk.fill();
      const full = join(disk.path, 'vigil.backup');
      const res = await runCli(['backup', '--to', full], source.env);
      // The operator's to fix, in a sentence: not a fault of the database, not a stack trace.
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/no space left on device/i);
      expect(res.stderr).not.toMatch(/database is not usable|\n\s+at /);
      expect(existsSync(full)).toBe(false);
      expect(existsSync(`${full}.partial`)).toBe(false);
    } finally {
      await disk.unmount();
    }
  });

  it('refuses a non-empty target unless --force, and --force replaces it', async () => {
    const refused = await runCli(['restore', '--from', file], target.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not empty|already holds a database/);
    expect(refused.stderr).toContain('--force');
    const forced = await runCli(['restore', '--from', file, '--force'], target.env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await countsOf(target.env)).toEqual(counts);
  });

  it('refuses what is not a backup of its kind', async () => {
    const junk = join(dir, 'junk');
    writeFileSync(junk, 'not a backup');
    const res = await runCli(['restore', '--from', junk], target.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is not a Vigil backup');
  });

  if (driver === 'postgres') {
    it('refuses to restore while another session uses the target database', async () => {
      const other = new pg.Client({ connectionString: target.env.DATABASE_URL });
      await other.connect();
      try {
        const res = await runCli(['restore', '--from', file, '--force'], target.env);
        expect(res.code).toBe(2);
        expect(res.stderr).toContain('stop every Vigil process using it before restoring');
      } finally {
        await other.end();
      }
    });
  }
});
