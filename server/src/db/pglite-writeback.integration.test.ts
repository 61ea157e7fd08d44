import { renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { PgliteGuard } from './pglite-guard.js';
import { FlushCounter, PgliteThread } from './pglite-thread.js';

/**
 * The background flushes of data files (pglite-thread-script.ts) when one fails. The flusher opens each file by its
 * path, so a path that no longer opens (here a link to itself: ELOOP) makes its flush fail, as a failing device's
 * write-back error would. That failure must reach PostgreSQL's own flush of a data file at the next checkpoint:
 * otherwise the checkpoint would succeed and let go of the WAL that is the only sound copy of what the file lost.
 */
describe('PGlite when a background flush of a data file fails', () => {
  let database: TestDatabase;
  let pgdata: string;
  let guard: PgliteGuard;
  const threads: PgliteThread[] = [];
  const flushed = new FlushCounter();
  const open = async () => {
    const thread = await PgliteThread.open(pgdata, { stuckAfterMs: 0 }, true, flushed);
    threads.push(thread);
    return thread;
  };

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    pgdata = join(database.env.VIGIL_DATA_DIR!, 'pgdata');
    guard = new PgliteGuard(await open(), { dataDir: database.env.VIGIL_DATA_DIR!, minFreeBytes: 0, reopen: open });
  }, 120_000);
  afterAll(async () => {
    await guard?.close();
    await database?.drop();
  });

  it('fails the next flush PostgreSQL makes, so it stops at once (a PANIC), and a new instance recovers every row', async () => {
    await guard.exec("CREATE TABLE w (doc text); CREATE TABLE beat (doc text); INSERT INTO w VALUES ('first')");
    const { rows } = await guard.query<{ path: string }>("SELECT pg_relation_filepath('w') AS path");
    const file = join(pgdata, rows[0]!.path);
    // PostgreSQL opens the file by its path in each transaction that touches it, so the path may lead nowhere only
    // between the write and the next statement. The flusher takes each second's files at once: wait for one of its
    // rounds to end, so the next begins about a second after the write.
    const synced = flushed.background;
    await guard.exec("INSERT INTO beat SELECT repeat('x', 1000) FROM generate_series(1, 100)");
    await expect.poll(() => flushed.background, { timeout: 10_000 }).toBeGreaterThan(synced);
    // The table grows: its new blocks are written to the file at once, and its path queued for the flusher.
    await guard.exec("INSERT INTO w SELECT repeat('x', 1000) FROM generate_series(1, 2000)");
    renameSync(file, `${file}.held`);
    symlinkSync(file, file);
    try {
      await expect.poll(() => flushed.failed, { timeout: 10_000 }).toBe(1);
    } finally {
      rmSync(file);
      renameSync(`${file}.held`, file);
    }
    // The next flush of any file fails, the commit's of the WAL included: PostgreSQL stops at once (a PANIC), as it
    // does when its own checkpointer's flush fails, rather than go on reading back what the disk may not hold.
    const commit = await guard.query("INSERT INTO w VALUES ('after the failure')").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(commit).toMatchObject({ severity: 'PANIC', message: expect.stringMatching(/could not fsync file/) });
    await expect(guard.query('SELECT 1')).rejects.toMatchObject({ kind: 'connection' });
    await guard.probe();
    // Recovered from the WAL, with the refused commit's row: it was written to the WAL before the flush that failed.
    const after = await guard.query<{ n: number }>('SELECT count(*)::int AS n FROM w');
    expect(after.rows).toEqual([{ n: 2002 }]);
    // The new instance's flusher has no failure of the old one's: its checkpoint succeeds.
    await guard.exec('CHECKPOINT');
    expect(threads).toHaveLength(2);
  });
});
