import { linkSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { PgliteGuard } from './pglite-guard.js';
import { FlushCounter, PgliteThread } from './pglite-thread.js';

/**
 * The background flushes of data files (pglite-thread-script.ts) when one fails. The flusher opens each file by its
 * path, so a path that no longer opens (here a link to itself: ELOOP) makes its flush fail, as PostgreSQL's
 * checkpointer counts a file it cannot open, and as a failing device's write-back error would. That failure must
 * stop PostgreSQL before any checkpoint could succeed and let go of the WAL that is the only sound copy of what the
 * file lost: its next flush of any file fails.
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
    // between the write and the next statement, and the flusher must try the file then. It takes each second's files
    // at once: wait for one of its rounds to end, write, and the next round comes about a second later. A machine
    // too slow for that flushes the file before its path is gone: then the same is tried again.
    let written = 1;
    for (let attempt = 1; flushed.failed === 0; attempt++) {
      const synced = flushed.background;
      await guard.exec("INSERT INTO beat SELECT repeat('x', 1000) FROM generate_series(1, 100)");
      await expect.poll(() => flushed.background, { timeout: 10_000 }).toBeGreaterThan(synced);
      // The table grows: its new blocks are written to the file at once, and its path queued for the flusher.
      await guard.exec("INSERT INTO w SELECT repeat('x', 1000) FROM generate_series(1, 200)");
      written += 200;
      // Swapped in one step each way, so that the flusher never finds no file there (which it takes for a dropped one).
      linkSync(file, `${file}.held`);
      symlinkSync(file, `${file}.loop`);
      renameSync(`${file}.loop`, file);
      try {
        // The next round, or two: later, the file was flushed before its path was gone.
        for (const deadline = Date.now() + 2500; flushed.failed === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      } finally {
        renameSync(`${file}.held`, file);
      }
      if (flushed.failed === 0 && attempt === 5) expect.fail('the flusher took the file before its path was gone, five times');
    }
    expect(flushed.failed).toBe(1);
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
    expect(after.rows).toEqual([{ n: written + 1 }]);
    // The new instance's flusher has no failure of the old one's: its checkpoint succeeds.
    await guard.exec('CHECKPOINT');
    expect(threads).toHaveLength(2);
  });
});
