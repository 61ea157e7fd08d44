import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe, type ServeProcess } from '../test-support/cli.js';
import { copyPgliteTemplate } from '../test-support/databases.js';
import { mountSmallDisk, type SmallDisk } from '../test-support/small-disk.js';
import { storedByKey } from '../test-support/stored-events.js';
import { isDocumentedUnavailable } from '../test-support/unavailable.js';

/**
 * The embedded database on a file system that fills up under load. With the default reserve Vigil refuses writes
 * before PGlite meets ENOSPC; with no reserve PGlite meets it itself, which (PGlite 0.5) would hang it for good if
 * it were sent one more command. Either way: 503 with Retry-After, /healthz alive, /readyz not ready, recovery
 * once space is freed, SIGTERM honoured, every answered event stored once.
 */
describe.each([
  { reserve: '64', what: 'refused before PGlite meets ENOSPC' },
  { reserve: '0', what: 'PGlite meets ENOSPC itself' },
])('PGlite on a full disk ($what)', ({ reserve }) => {
  let disk: SmallDisk;
  let env: Record<string, string>;
  let vigil: ServeProcess;
  let key: string;

  beforeAll(async () => {
    assertBuilt();
    disk = await mountSmallDisk(160);
    // A behavior makes each group commit a transaction, the path where PGlite's own ROLLBACK would hang.
    const config = join(disk.path, 'vigil.json');
    const behavior = { name: 'tx_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['transfer'] };
    writeFileSync(config, JSON.stringify({ behaviors: [behavior] }));
    // No per-key rate limit: a full disk is refused at once, so the writers' loop can pass 1,000 requests a second
    // (a run answered 16 of them 429), and a rate limit is not what this test is about.
    env = { VIGIL_DATA_DIR: join(disk.path, 'data'), VIGIL_DATA_DIR_MIN_FREE_MB: reserve, VIGIL_CONFIG: config, VIGIL_RATE_LIMIT_RPS: '0' };
    // A copy of the migrated template (the size of a new one), rather than initdb and every migration on a new one.
    await copyPgliteTemplate(env.VIGIL_DATA_DIR!);
    key = JSON.parse((await runCli(['keys', 'create', '--kind', 'write', '--name', 'disk', '--json'], env)).stdout).key;
    vigil = await startServe(env);
  });
  afterAll(async () => {
    await vigil?.stop('SIGKILL');
    await disk?.unmount();
  });

  const violations: string[] = [];
  const answered = new Set<string>();
  let refused = 0;
  let sent = 0;
  let running = true;

  async function postEvent(): Promise<void> {
    const id = `disk-${sent++}`;
    try {
      const response = await fetch(`${vigil.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        // Some bulk, so the disk fills with events, not only with the filler.
        body: JSON.stringify({ event: 'transfer', identity: `user-${sent % 5}`, properties: { event_id: id, note: 'x'.repeat(2000) } }),
        signal: AbortSignal.timeout(20_000),
      });
      const body = await response.text();
      if (response.status === 200) return void answered.add(id);
      refused++;
      if (!isDocumentedUnavailable(response, body)) violations.push(`${response.status} ${body.slice(0, 200)}`);
    } catch (error) {
      violations.push(`no answer: ${(error as Error).message}`);
    }
  }

  const until = async (what: string, done: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 600; i++) {
      if (await done()) return;
      expect(vigil.child.exitCode, `vigil exited: ${vigil.stderr().slice(-500)}`).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`not within 60 s: ${what}`);
  };
  const status = async (path: string) => {
    const response = await fetch(`${vigil.url}${path}`, { signal: AbortSignal.timeout(5000) });
    await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after') };
  };

  it('answers 503 with Retry-After while full, stays alive, recovers when space is freed, and honours SIGTERM', async () => {
    const writers = Array.from({ length: 4 }, async () => {
      while (running) await postEvent();
    });
    try {
      await until('events are stored', () => answered.size >= 30);
      disk.fill();
      await until('a full disk is answered 503', () => refused > 0);
      // Not ready, but alive: the event loop is not held by the database.
      const ready = await status('/readyz');
      expect(ready.status).toBe(503);
      expect(Number(ready.retryAfter)).toBeGreaterThan(0);
      for (let i = 0; i < 5; i++) {
        expect((await status('/healthz')).status).toBe(200);
        await new Promise((r) => setTimeout(r, 300));
      }

      disk.free();
      const before = answered.size;
      await until('events are stored again after space was freed', () => answered.size > before);
      await until('/readyz is ready again', async () => (await status('/readyz')).status === 200);
    } finally {
      running = false;
      await Promise.all(writers);
    }
    console.info(`disk (reserve ${reserve} MiB): ${answered.size} events stored, ${refused} refused with 503`);
    expect(violations).toEqual([]);

    // SIGTERM on a full disk ends the process (the test's own timeout is the bound).
    disk.fill();
    await status('/readyz');
    expect(await vigil.stop('SIGTERM')).not.toBeNull();
    disk.free();

    const counts = await storedByKey(env, 'disk-');
    expect([...answered].filter((id) => !counts.has(id))).toEqual([]);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
  }, 300_000);
});
