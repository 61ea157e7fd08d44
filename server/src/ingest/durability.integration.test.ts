import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { checkpoints, diskFlushes } from '../test-support/metrics.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';

beforeAll(() => assertBuilt());

describe.each(testDrivers())('durability on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
  });
  afterAll(async () => db?.drop());

  it('keeps every answered event when the process is killed with SIGKILL', async () => {
    const created = await runCli(['keys', 'create', '--kind', 'write', '--name', 'kill test', '--json'], db.env);
    const { key } = JSON.parse(created.stdout);
    const server = await startServe(db.env);

    const answered: string[] = [];
    let stop = false;
    const post = async (n: number) => {
      try {
        const res = await fetch(`${server.url}/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'transfer', properties: { event_id: `kill-${n}`, amount: n } }),
        });
        if (res.status === 200) answered.push(((await res.json()) as { event_id: string }).event_id);
      } catch {
        // Connection cut by the kill: this event was never answered, so it may be lost.
      }
    };
    // Many concurrent writers, so the kill lands in the middle of group commits.
    let n = 0;
    const writers = Array.from({ length: 16 }, async () => {
      while (!stop) await post(n++);
    });
    while (answered.length < 200) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await new Promise((r) => (server.child.exitCode !== null || server.child.signalCode ? r(null) : server.child.once('exit', r)));

    // After a restart, every answered event must be found stored.
    const again = await startServe(db.env);
    try {
      const { default: pg } = await import('pg');
      let stored: Set<string>;
      if (driver === 'postgres') {
        const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
        await client.connect();
        const rows = await client.query<{ id: string }>('SELECT id FROM events');
        await client.end();
        stored = new Set(rows.rows.map((r) => r.id));
      } else {
        stored = new Set<string>();
        // Ask the restarted server by replaying each idempotency key: a stored event answers with its first id.
        for (let i = 0; i < n; i += 100) {
          const batch = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
            event: 'transfer',
            properties: { event_id: `kill-${i + j}`, amount: i + j },
          }));
          const r = await fetch(`${again.url}/events/batch`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ events: batch }),
          });
          const body = (await r.json()) as { results: { insights: { event_id: string } }[] };
          body.results.forEach((x) => stored.add(x.insights.event_id));
        }
      }
      const lost = answered.filter((id) => !stored.has(id));
      expect(answered.length).toBeGreaterThanOrEqual(200);
      expect(lost).toEqual([]);
    } finally {
      await again.stop();
    }
  });
});

describe.runIf(testDrivers().includes('pglite'))('durability of the embedded database against a crash of the machine', () => {
  let server: TestVigil | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const commitOne = async (vigil: TestVigil) => expect((await vigil.post('/events', { event: 'login', identity: 'flush@example.com' })).status).toBe(200);

  it('flushes each commit to the disk before answering it, by default', async () => {
    server = await startTestVigil('pglite');
    const before = await diskFlushes(server);
    for (let n = 0; n < 3; n++) await commitOne(server);
    // One flush of the WAL a commit at least; a commit is answered only after its flush. Each is timed.
    const after = await diskFlushes(server);
    expect(after.fsyncs! - before.fsyncs!).toBeGreaterThanOrEqual(3);
    expect(after.walFlushSeconds!).toBeGreaterThan(before.walFlushSeconds!);
    expect(after.longest!).toBeGreaterThan(0);
    expect(after.longest!).toBeLessThanOrEqual(after.walFlushSeconds! - before.walFlushSeconds!);
    // The data files the commits wrote (the first rows of new tables' partitions) follow within a second or so.
    await expect.poll(async () => (await diskFlushes(server!)).background, { timeout: 10_000 }).toBeGreaterThan(before.background!);
    expect((await diskFlushes(server)).failed).toBe(0);
  });

  it('counts the checkpoints Vigil runs for the embedded database, which runs none of its own (pglite-checkpointer.ts)', async () => {
    server = await startTestVigil('pglite');
    await commitOne(server);
    expect(await checkpoints(server)).toEqual({ wal: 0, time: 0, lull: 0, seconds: 0, failed: 0 });
  });

  it('leaves the writing to the operating system with VIGIL_DATA_DIR_SYNC=off', async () => {
    server = await startTestVigil('pglite', { VIGIL_DATA_DIR_SYNC: 'off' });
    await commitOne(server);
    // A round of the background flusher (each second) must pass for its count of 0 to say anything.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await diskFlushes(server)).toEqual({ fsyncs: 0, background: 0, failed: 0, walFlushSeconds: 0, slowWalFlushes: 0, longest: 0 });
  });
});
