import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli.js';
import { mountSmallDisk, type SmallDisk } from '../test-support/small-disk.js';

const GUARD = fileURLToPath(new URL('../../dist/db/pglite-guard.js', import.meta.url));

/**
 * The exact condition that hangs PGlite 0.5: WAL-only writes (HOT updates into pages with room) on a full disk
 * fail to create the next WAL segment; the statement fails with 53100, and any later command spins forever on
 * the main thread. It runs in a child process, because a hang there would also stop this test's own timers; the
 * test kills it at a deadline.
 */
const SCRIPT = `
import { PGlite } from '@electric-sql/pglite';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { PgliteGuard } from ${JSON.stringify(GUARD)};
const [disk] = process.argv.slice(-1);
const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const dir = disk + '/pg';
const guard = new PgliteGuard(await PGlite.create(dir), { dataDir: disk, minFreeBytes: 0, reopen: () => PGlite.create(dir) });
await guard.exec('CREATE TABLE t (id int PRIMARY KEY, v text) WITH (fillfactor = 10)');
await guard.exec("INSERT INTO t SELECT g, 'a' FROM generate_series(1, 1000) g");
await guard.exec('CHECKPOINT');
const fd = openSync(disk + '/filler', 'a');
try { for (;;) writeSync(fd, Buffer.alloc(65536)); } catch {} finally { closeSync(fd); }
for (let i = 0; ; i++) {
  try {
    await guard.query("UPDATE t SET v = repeat('b', (random() * 50)::int)");
  } catch (e) { say({ step: 'first error', after: i, code: e.code, message: e.message }); break; }
}
try { await guard.query('SELECT 1'); say({ step: 'after', ok: true }); }
catch (e) { say({ step: 'after', name: e.name, kind: e.kind }); }
rmSync(disk + '/filler');
await guard.probe();
const { rows } = await guard.query('SELECT count(*)::int AS n FROM t');
say({ step: 'recovered', rows: rows[0].n });
await guard.close();
`;

describe('PgliteGuard on a full disk', () => {
  let disk: SmallDisk;
  beforeAll(async () => {
    assertBuilt();
    disk = await mountSmallDisk(60);
  });
  afterAll(async () => disk?.unmount());

  it('sends PGlite nothing after a WAL write failed for lack of space, and reopens it once space is freed', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, disk.path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(deadline);
    const steps = out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(steps[0], err).toMatchObject({ step: 'first error', code: '53100' });
    // The condition that hangs PGlite: the next WAL segment could not be created.
    expect(steps[0].message).toContain('pg_wal');
    expect(steps[1], 'a command sent to PGlite after the failure hung it').toMatchObject({ step: 'after', name: 'DatabaseFault', kind: 'disk_full' });
    expect(steps[2]).toEqual({ step: 'recovered', rows: 1000 });
    expect(code).toBe(0);
  }, 180_000);
});
