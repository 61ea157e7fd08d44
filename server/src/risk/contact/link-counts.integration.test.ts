import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder } from '@vigil/drizzle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAll } from '../../db/compose.js';
import type { Db } from '../../db/handle.js';
import { rows } from '../../db/rows.js';
import { sql as hot } from '../../db/statement.js';
import { factKey, FactCache } from '../../pipeline/fact-cache.js';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';
import { rowsProcessed } from '../../test-support/rows-processed.js';
import { eraseIdentity } from '../../identity/erase.js';
import { cachedContactSightings, readContactSightings, resolveContactSightings, type Sighting } from './sightings.js';

const FIRST = '2026-01-01T00:00:00.000Z';

/** An e-mail stored with `n` devices, as `n` events would have left it. */
async function seedEmail(db: Db, value: string, n: number): Promise<void> {
  await db.execute(sql`INSERT INTO intel_sightings (kind, value, first_seen, links) VALUES ('email', ${value}, ${FIRST}, ${n})`);
  await db.execute(sql`INSERT INTO intel_links (kind, value, linked) SELECT 'email', ${value}, 'dev-' || i FROM generate_series(1, ${n}) AS i`);
}

const sighting = (value: string, linked: string): Sighting => ({ kind: 'email', value, at: new Date('2026-02-01T00:00:00.000Z'), linked });

const storedLinks = async (db: Db, value: string) =>
  (await rows<{ links: number }>(db, sql`SELECT links FROM intel_sightings WHERE kind = 'email' AND value = ${value}`))[0]?.links;

describe.each(testDrivers())('e-mail and phone link counts on %s', (driver) => {
  let server: TestVigil;
  let db: Db;
  beforeAll(async () => {
    server = await startTestVigil(driver);
    db = server.database.db;
    await seedEmail(db, 'few@example.com', 3);
    await seedEmail(db, 'many@example.com', 3000);
  });
  afterAll(async () => server?.close());

  it('reads as many rows for an event whose e-mail has 3,000 devices as for one with 3', async () => {
    const read = async (value: string) => rowsProcessed(db, readContactSightings([sighting(value, 'dev-new')])!);
    expect(await read('many@example.com')).toBe(await read('few@example.com'));
    // What the cache's check of a value reads, when the cache holds one link (another process added the rest).
    const check = async (value: string) => {
      const cache = new FactCache(10);
      cache.set(factKey.contact('email', value), { first: Date.parse(FIRST), n: 1, links: ['dev-1'] });
      return rowsProcessed(db, cachedContactSightings([sighting(value, 'dev-1')], cache)!.stale!());
    };
    expect(await check('many@example.com')).toBe(await check('few@example.com'));
  });

  it('answers the count kept beside the value, and adds the new devices to it', async () => {
    const send = async (device: string) => {
      const res = await server.post('/events', { event: 'login', properties: { email: 'many@example.com', device_id: device } });
      expect(res.status).toBe(200);
      return res.body.email_intel.devices_seen;
    };
    expect(await send('dev-17')).toBe(3000);
    expect(await send('dev-new-1')).toBe(3001);
    expect(await send('dev-new-1')).toBe(3001);
    expect(await storedLinks(db, 'many@example.com')).toBe(3001);
  });

  // PGlite runs one transaction at a time: two batches cannot race on it.
  if (driver === 'postgres')
    it('counts a link once when two batches add it at the same time', async () => {
      // Both batches read the value before either wrote: each believes the link is new.
      const [a, b] = [0, 1].map(() =>
        resolveContactSightings([sighting('race@example.com', 'dev-r'), sighting('race@example.com', `dev-${Math.random()}`)], null),
      );
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = db.transaction(async (tx) => {
        await writeAll(tx, a!.writes, hot`SELECT 1`);
        wrote();
        await held;
      });
      await written;
      // The second waits on the first's uncommitted rows, then finds dev-r there.
      const second = writeAll(db, b!.writes, hot`SELECT 1`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      await Promise.all([first, second]);
      expect(await storedLinks(db, 'race@example.com')).toBe(3);
      const [{ n }] = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM intel_links WHERE value = 'race@example.com'`)) as [{ n: number }];
      expect(n).toBe(3);
    });

  // PGlite runs one transaction at a time: a batch cannot come between an erasure's statements there.
  if (driver === 'postgres')
    it('keeps the count equal to the links when a batch adds a link while an erasure deletes the value', async () => {
      const value = 'erased@example.com';
      await seedEmail(db, value, 3);
      // The erasure is held right after its first statement (the sightings' delete) returns, before the links'.
      let open!: () => void;
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      // The backend that ran the held statement: the batch must wait on it, not on anything else.
      let held: number | undefined;
      const holdAfterFirst = <T extends object>(handle: T): T =>
        new Proxy(handle, {
          get(target, key) {
            const member = Reflect.get(target, key, target) as unknown;
            if (key === 'execute')
              return async (query: unknown) => {
                const execute = (q: unknown) => (member as (q: unknown) => Promise<unknown>).call(target, q);
                const result = await execute(query);
                if (held === undefined) {
                  held = ((await execute(sql`SELECT pg_backend_pid() AS pid`)) as { rows: { pid: number }[] }).rows[0]!.pid;
                  await gate;
                }
                return result;
              };
            if (key === 'transaction')
              return (work: (tx: Db) => Promise<unknown>, config?: unknown) =>
                (member as (w: (tx: Db) => Promise<unknown>, c?: unknown) => Promise<unknown>).call(target, (tx) => work(holdAfterFirst(tx)), config);
            return typeof member === 'function' ? member.bind(target) : member;
          },
        });
      const erasing = eraseIdentity(holdAfterFirst(db), { identity: 'erased-user', emails: [value], phones: [], ips: [] });
      let writing: Promise<unknown> = Promise.resolve();
      try {
        await expect.poll(() => held).toBeDefined();
        // A batch that read the value before the erasure began adds a new device's link.
        const batch = resolveContactSightings([sighting(value, 'dev-after')], null)!;
        let done = false;
        writing = writeAll(db, batch.writes, hot`SELECT 1`).then(() => (done = true));
        const blockedByErasure = async () => (await rows(db, sql`SELECT 1 FROM pg_stat_activity WHERE ${held!}::int = ANY(pg_blocking_pids(pid))`)).length > 0;
        // Either it waits for the erasure's commit, or (were the deletes two commits) it is already written.
        await expect.poll(async () => done || (await blockedByErasure()), { timeout: 10_000 }).toBe(true);
      } finally {
        // Never left holding its rows: every later test of the file would wait on them.
        open();
        await Promise.allSettled([erasing, writing]);
      }
      await Promise.all([erasing, writing]);
      const links = await rows<{ linked: string }>(db, sql`SELECT linked FROM intel_links WHERE kind = 'email' AND value = ${value}`);
      expect(links.map((l) => l.linked)).toEqual(['dev-after']);
      expect(await storedLinks(db, value)).toBe(1);
    });

  it("sets each stored value's count from its links when migrating a store from before the counts", async () => {
    await seedEmail(db, 'old@example.com', 7);
    await db.execute(sql`UPDATE intel_sightings SET links = 0`);
    const migration = readFileSync(join(migrationsFolder, '0022_intel_link_counts.sql'), 'utf8').split('--> statement-breakpoint');
    await db.execute(sql.raw(migration[1]!));
    expect(await storedLinks(db, 'old@example.com')).toBe(7);
    expect(await storedLinks(db, 'many@example.com')).toBe(3001);
    expect(await storedLinks(db, 'few@example.com')).toBe(3);
  });
});
