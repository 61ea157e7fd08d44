import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe, type ServeProcess } from '../test-support/cli.js';
import { copyPgliteTemplate } from '../test-support/databases.js';
import { type FlakyDisk, mountFlakyDisk } from '../test-support/flaky-disk.js';
import { storedByKey } from '../test-support/stored-events.js';
import { isDocumentedUnavailable } from '../test-support/unavailable.js';

/** The WAL segment PostgreSQL is writing: the one changed last. */
function currentWalSegment(dataDir: string): string {
  const wal = join(dataDir, 'pg_wal');
  const segments = readdirSync(wal)
    .filter((name) => /^[0-9A-F]{24}$/.test(name))
    .map((name) => ({ path: join(wal, name), changed: statSync(join(wal, name)).mtimeMs }));
  return segments.sort((a, b) => b.changed - a.changed)[0]!.path;
}

/**
 * The embedded database (flushing, the default) on a disk that takes its writes but refuses to flush them, as a
 * failing device does: PostgreSQL's fsync() of the WAL at a commit fails, and it PANICs. No event may be answered 200
 * whose commit did not reach the disk; the failure is a 503 with Retry-After, the process stays alive, and once flushes
 * succeed again the database recovers from its WAL and a retry of a refused event counts once.
 */
describe('PGlite on a disk whose flushes fail', () => {
  let disk: FlakyDisk;
  let env: Record<string, string>;
  let vigil: ServeProcess;
  let key: string;

  beforeAll(async () => {
    assertBuilt();
    disk = await mountFlakyDisk(256);
    env = { VIGIL_DATA_DIR: join(disk.path, 'data') };
    await copyPgliteTemplate(env.VIGIL_DATA_DIR!);
    key = JSON.parse((await runCli(['keys', 'create', '--kind', 'write', '--name', 'flaky', '--json'], env)).stdout).key;
    vigil = await startServe(env);
  });
  afterAll(async () => {
    await vigil?.stop('SIGKILL');
    await disk?.unmount();
  });

  const post = async (id: string) => {
    const response = await fetch(`${vigil.url}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'login', identity: 'ana@example.com', properties: { event_id: id, device_id: 'flaky-device' } }),
      signal: AbortSignal.timeout(30_000),
    });
    return { response, body: await response.text() };
  };

  it('answers no event whose commit was not flushed, refuses with 503 and Retry-After, stays alive, and recovers', async () => {
    const answered = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const { response } = await post(`flaky-before-${i}`);
      expect(response.status).toBe(200);
      answered.add(`flaky-before-${i}`);
    }

    await disk.failFlushesAfterContentOf(currentWalSegment(join(env.VIGIL_DATA_DIR!, 'pgdata')));
    // The first commits may still fit the WAL's written blocks, which flush; then one reaches the refused ones.
    let refused: string | undefined;
    for (let i = 0; i < 500 && refused === undefined; i++) {
      const id = `flaky-during-${i}`;
      const { response, body } = await post(id);
      if (response.status === 200) answered.add(id);
      else {
        expect(isDocumentedUnavailable(response, body), `${response.status} ${body}`).toBe(true);
        refused = id;
      }
    }
    expect(refused, 'no commit met the refused flush').toBeDefined();

    // While flushes fail: refused, promptly (not held until a watchdog ends the database thread), and alive.
    for (let i = 0; i < 3; i++) {
      const { response, body } = await post(`flaky-refused-${i}`);
      expect(isDocumentedUnavailable(response, body), `${response.status} ${body}`).toBe(true);
      expect((await fetch(`${vigil.url}/healthz`)).status).toBe(200);
    }
    expect(vigil.child.exitCode).toBeNull();

    disk.heal();
    let stored = false;
    for (let i = 0; i < 300 && !stored; i++) {
      const id = `flaky-after-${i}`;
      const { response } = await post(id);
      if (response.status === 200) {
        answered.add(id);
        stored = true;
      } else await new Promise((r) => setTimeout(r, 200));
    }
    expect(stored, `nothing stored after the disk healed: ${vigil.stderr().slice(-1000)}`).toBe(true);
    // The refused event: its commit may have reached the WAL in memory, and recovery replayed it. Either way its
    // retry is answered, and it is counted once.
    expect((await post(refused!)).response.status).toBe(200);
    answered.add(refused!);

    console.info(`flaky disk: ${answered.size} events answered, ${refused} refused first`);
    expect(await vigil.stop('SIGTERM')).toBe(0);
    const counts = await storedByKey(env, 'flaky-');
    expect([...answered].filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
  }, 240_000);
});
