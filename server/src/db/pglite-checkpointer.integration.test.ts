import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { openDatabase } from './open.js';
import { PgliteCheckpointer } from './pglite-checkpointer.js';
import { PgliteGuard } from './pglite-guard.js';
import { PgliteThread } from './pglite-thread.js';

const MB = 1024 * 1024;

describe("Vigil's checkpointer on PGlite, which checkpoints only when it shuts down", () => {
  let database: TestDatabase;
  let pgdata: string;
  let guard: PgliteGuard;
  const limits = { stuckAfterMs: 0 };
  const segments = () => readdirSync(join(pgdata, 'pg_wal')).filter((f) => /^[0-9A-F]{24}$/.test(f)).length;
  /** The WAL written since the last checkpoint's redo point, in bytes. */
  const walSince = async () =>
    (await guard.query<{ wal: number }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 AS wal FROM pg_control_checkpoint()')).rows[0]!
      .wal;
  /** About `mb` MB of WAL: rows of 1 kB that no page holds yet. */
  const write = (mb: number) => guard.exec(`INSERT INTO w SELECT repeat(md5(g::text), 32) FROM generate_series(1, ${mb * 1000}) g`);

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    pgdata = join(database.env.VIGIL_DATA_DIR!, 'pgdata');
    // PostgreSQL's settings, as an operator would set them: the smallest max_wal_size (two segments of 16 MB).
    await (await PgliteThread.open(pgdata, limits, true)).close();
    appendFileSync(join(pgdata, 'postgresql.conf'), '\nmax_wal_size = 32MB\nmin_wal_size = 32MB\n');
    const open = () => PgliteThread.open(pgdata, limits, true);
    guard = new PgliteGuard(await open(), { dataDir: database.env.VIGIL_DATA_DIR!, minFreeBytes: 0, reopen: open });
    await guard.exec('CREATE TABLE w (doc text)');
  }, 120_000);
  afterAll(async () => {
    await guard?.close();
    await database?.drop();
  });

  it('lets pg_wal grow with every byte written when nothing checkpoints', async () => {
    const before = segments();
    await write(48);
    expect(segments()).toBeGreaterThanOrEqual(before + 3);
  });

  it('keeps pg_wal to twice max_wal_size while five times as much is written, checkpointing as the WAL fills it', async () => {
    const checkpointer = new PgliteCheckpointer(guard, { everyMs: 60_000 });
    await write(16);
    await checkpointer.tick();
    expect(checkpointer.counts.wal).toBe(1);
    const sizes: number[] = [];
    for (let n = 0; n < 10; n++) {
      await write(16);
      await checkpointer.tick();
      sizes.push(segments());
    }
    expect(checkpointer.counts.wal).toBeGreaterThanOrEqual(5);
    expect(Math.max(...sizes) * 16 * MB).toBeLessThanOrEqual(64 * MB);
    expect(await walSince()).toBeLessThan(32 * MB);
  }, 120_000);

  it('checkpoints in a lull once a sixteenth of max_wal_size is written, and not while writes go on', async () => {
    // Each measurement a whole interval after the last, as the timer spaces them.
    let clock = 0;
    const checkpointer = new PgliteCheckpointer(guard, { everyMs: 60_000, now: () => (clock += 60_000) });
    await guard.exec('CHECKPOINT');
    // Under a sixteenth (2 MB of 32 MB): a lull alone is no cause.
    await write(1);
    await checkpointer.tick();
    await checkpointer.tick();
    expect(checkpointer.counts.lull).toBe(0);
    // Over it, with a write between every two measurements: no lull.
    for (let n = 0; n < 3; n++) {
      await write(1);
      await checkpointer.tick();
    }
    expect(checkpointer.counts).toMatchObject({ wal: 0, time: 0, lull: 0 });
    expect(await walSince()).toBeGreaterThan(2 * MB);
    // Then nothing written between two measurements.
    await checkpointer.tick();
    expect(checkpointer.counts).toMatchObject({ wal: 0, time: 0, lull: 1 });
    expect(await walSince()).toBeLessThan(MB);
  }, 120_000);
});

describe('the embedded database as Vigil opens it', () => {
  let database: TestDatabase;
  afterAll(async () => {
    await database?.drop();
  });

  it('runs the checkpointer from the moment it opens until it closes, counting its checkpoints', async () => {
    database = await createTestDatabase('pglite');
    const env = loadConfig({ ...database.env }).env;
    await (await openDatabase(env, { migrate: false, purpose: 'test' })).close();
    appendFileSync(join(database.env.VIGIL_DATA_DIR!, 'pgdata', 'postgresql.conf'), '\nmax_wal_size = 32MB\n');
    const opened = await openDatabase(env, { migrate: false, purpose: 'test', checkpointEveryMs: 50 });
    try {
      await opened.db.execute(sql.raw('CREATE TABLE w (doc text)'));
      await opened.db.execute(sql.raw('INSERT INTO w SELECT repeat(md5(g::text), 32) FROM generate_series(1, 20000) g'));
      await expect.poll(() => opened.checkpoints?.().wal, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    } finally {
      await opened.close();
    }
  }, 60_000);
});
