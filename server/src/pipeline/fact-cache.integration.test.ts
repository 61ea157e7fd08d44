import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, withClient, type TestDatabase } from '../test-support/databases.js';
import { connectionsOpened, factCacheCommits, factCacheEntries } from '../test-support/metrics.js';
import type { Tx } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { isStaleFacts, staleFactsXid } from './fact-cache.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { startPostgresServer } from '../test-support/postgres-server.js';
import { supervisorAccounts, supervisorRequest } from '../test-support/supervisors.js';

/**
 * The per-process fact cache must never answer from a fact another process (or this one) has since changed. On
 * PostgreSQL two Vigil instances share one database, each with its own pool and cache: changes go through one,
 * events through the other, whose cache was warmed first (several events, so the last ones are answered from
 * it). On PGlite, one process changes and answers. Each event is sent after the change has returned.
 */

/**
 * A database on a PostgreSQL server of its own, with autovacuum off: transaction ids are the server's, not one
 * database's, so the test files running beside this one on the shared server, and autovacuum's statistics, would take
 * ids between a test's commits and end its chains of proofs as any other writer does.
 */
async function databaseAlone(driver: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (driver === 'pglite') return createTestDatabase(driver);
  const server = await startPostgresServer();
  await withClient(server.url, async (c) => {
    await c.query('ALTER SYSTEM SET autovacuum = off');
    await c.query('SELECT pg_reload_conf()');
  });
  return { env: { DATABASE_URL: server.url }, drop: () => server.destroy() };
}

for (const driver of testDrivers()) {
  describe(`fact cache (${driver})`, () => {
    let db: TestDatabase;
    let changer: TestVigil;
    let answerer: TestVigil;
    let supervisorToken: string;

    beforeAll(async () => {
      db = await databaseAlone(driver);
      // Key usage is written only when a test asks (its timer's writes would land between a test's commits).
      const env = { VIGIL_KEY_USAGE_FLUSH_SECONDS: '3600' };
      changer = await startTestVigil(driver, env, db);
      answerer = driver === 'postgres' ? await startTestVigil(driver, env, db) : changer;
      supervisorToken = (await supervisorAccounts(changer)).supervisor.token;
    }, 120_000);

    afterAll(async () => {
      if (answerer !== changer) await answerer?.close();
      await changer?.close();
      await db?.drop();
    });

    // On PostgreSQL stored events are announced to other processes' live feeds VIGIL_LIVE_ANNOUNCE_MS (50) later, in
    // a transaction of their own, and a batch begun while one is under way tries no proof: each event of these tests
    // has the announcements of earlier ones made first, both processes', so that what a test counts does not depend
    // on how fast the machine runs it.
    const announced = () => Promise.all([changer.vigil.feed.flush(), answerer.vigil.feed.flush()]);
    const event = async (server: TestVigil, deviceId: string, identity: string) => {
      await announced();
      const res = await server.post('/events', { event: 'login', identity, properties: { device_id: deviceId } });
      expect(res.status).toBe(200);
      return res.body;
    };
    const warm = async (server: TestVigil, deviceId: string, identity: string) => {
      for (let i = 0; i < 3; i++) await event(server, deviceId, identity);
    };
    const commits = factCacheCommits;
    /** The id the next transaction will take. */
    const nextXid = async () => BigInt((await rows<{ x: string }>(answerer.database.db, sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x`))[0]!.x);
    const supervisor = async (path: string, body: unknown) => {
      const res = await supervisorRequest(changer, 'POST', path, supervisorToken, body);
      expect(res.status).toBe(200);
    };

    it('answers every registry move made elsewhere in the next event', async () => {
      await warm(answerer, 'reg-dev', 'alice@example.com');
      expect((await event(answerer, 'reg-dev', 'alice@example.com')).device.status).toBe('unregistered');

      expect((await changer.post('/devices/reg-dev/register', { user_id: 'alice' }, { key: changer.clientKey })).status).toBe(200);
      expect((await event(answerer, 'reg-dev', 'alice@example.com')).device).toMatchObject({ status: 'active', registered_to: 'alice' });
      await warm(answerer, 'reg-dev', 'alice@example.com');

      expect((await changer.post('/devices/reg-dev/deactivate', { reason: 'lost' }, { key: changer.clientKey })).status).toBe(200);
      const deactivated = await event(answerer, 'reg-dev', 'alice@example.com');
      expect(deactivated.device).toMatchObject({ status: 'deactivated', is_trusted: false });
      expect(deactivated.current_tags).toContain('deactivated');
      await warm(answerer, 'reg-dev', 'alice@example.com');

      await supervisor('/api/devices/reg-dev/transfer', { new_user_id: 'bob', by: 'boss' });
      expect((await event(answerer, 'reg-dev', 'bob@example.com')).device).toMatchObject({ status: 'deactivated', registered_to: 'bob' });
      await warm(answerer, 'reg-dev', 'bob@example.com');

      await supervisor('/api/devices/reg-dev/reactivate', { reason: 'found', by: 'boss' });
      const reactivated = await event(answerer, 'reg-dev', 'bob@example.com');
      expect(reactivated.device).toMatchObject({ status: 'active', registered_to: 'bob', is_trusted: true });
      expect(reactivated.current_tags).not.toContain('deactivated');
    });

    it('answers a warm device without a read, and a fact changed elsewhere after a failed check', async () => {
      await warm(answerer, 'shared-dev', 'carol@example.com');
      const before = await commits(answerer);
      expect((await event(answerer, 'shared-dev', 'carol@example.com')).current_tags).not.toContain('multi_user');
      expect((await commits(answerer)).cached).toBe(before.cached + 1);

      await event(changer, 'shared-dev', 'dave@example.com');
      const changed = await commits(answerer);
      expect((await event(answerer, 'shared-dev', 'carol@example.com')).current_tags).toContain('multi_user');
      // Another process's write is found by the check in the write; this process's own write refreshed its cache.
      if (answerer !== changer) expect((await commits(answerer)).stale).toBe(changed.stale + 1);
      else expect((await commits(answerer)).cached).toBe(changed.cached + 1);
    });

    it('answers facts written by statements that announced nothing, next or after events of other devices', async () => {
      // Not through Vigil: no notification drops the cached identities; only the write's check (or its proof
      // failing) can see them.
      const otherUser = (deviceId: string, identity: string) =>
        answerer.database.db.execute(
          sql`INSERT INTO device_identities (device_id, identity, first_seen, last_seen) VALUES (${deviceId}, ${identity}, now(), now())`,
        );
      await warm(answerer, 'quiet-dev', 'ivan@example.com');
      await warm(answerer, 'busy-dev', 'leo@example.com');
      expect((await event(answerer, 'quiet-dev', 'ivan@example.com')).current_tags).not.toContain('multi_user');
      await otherUser('quiet-dev', 'judy@example.com');
      expect((await event(answerer, 'quiet-dev', 'ivan@example.com')).current_tags).toContain('multi_user');
      // Commits in between that do not use the changed fact must not make it look current again.
      await otherUser('busy-dev', 'mia@example.com');
      await event(answerer, 'quiet-dev', 'ivan@example.com');
      await event(answerer, 'quiet-dev', 'ivan@example.com');
      expect((await event(answerer, 'busy-dev', 'leo@example.com')).current_tags).toContain('multi_user');
    });

    it('writes cached facts with a proof instead of comparing them, while nothing else writes', async () => {
      await announced(); // the other process's are somebody else's writes here
      await warm(answerer, 'calm-dev', 'kate@example.com');
      await announced();
      const before = await commits(answerer);
      await event(answerer, 'calm-dev', 'kate@example.com');
      await event(answerer, 'calm-dev', 'kate@example.com');
      const after = await commits(answerer);
      expect(after.cached).toBe(before.cached + 2);
      expect(after.unchecked).toBe(before.unchecked + 2);

      // A transaction of anything else's comes between. The next write finds its id is not the next one, is undone
      // and written again comparing each fact; the one after compares too (something else may still be writing);
      // once that one's id followed, proofs are tried again.
      await answerer.database.db.execute(sql`UPDATE device_identities SET last_seen = last_seen WHERE device_id = 'calm-dev'`);
      await event(answerer, 'calm-dev', 'kate@example.com');
      expect(await commits(answerer)).toMatchObject({
        unchecked: after.unchecked,
        unproven: after.unproven + 1,
        stale: after.stale,
      });
      await event(answerer, 'calm-dev', 'kate@example.com');
      expect((await commits(answerer)).unchecked).toBe(after.unchecked);
      await event(answerer, 'calm-dev', 'kate@example.com');
      expect((await commits(answerer)).unchecked).toBe(after.unchecked + 1);
    });

    it('goes on writing with a proof through the key-usage flush, a transaction that changes no cached fact', async () => {
      await announced(); // the other process's are somebody else's writes here
      await warm(answerer, 'used-dev', 'lina@example.com');
      await announced();
      const before = await commits(answerer);
      const xidBefore = await nextXid();
      // The events' key was used: the flush writes when, in a transaction of its own between two group commits.
      await answerer.vigil.keys.flushUsage();
      expect(await nextXid()).toBeGreaterThan(xidBefore);
      await event(answerer, 'used-dev', 'lina@example.com');
      await event(answerer, 'used-dev', 'lina@example.com');
      expect(await commits(answerer)).toMatchObject({
        unchecked: before.unchecked + 2,
        unproven: before.unproven,
        stale: before.stale,
      });
    });

    it("goes on writing with a proof through the live feed's announcements, a transaction that changes no cached fact", async () => {
      await announced(); // the other process's are somebody else's writes here
      await warm(answerer, 'announced-dev', 'nina@example.com');
      await announced();
      const before = await commits(answerer);
      for (let i = 0; i < 2; i++) {
        const xidBefore = await nextXid();
        await event(answerer, 'announced-dev', 'nina@example.com');
        // On PostgreSQL it is announced too: two ids were taken, the commit's and the announcement's.
        await announced();
        expect(await nextXid()).toBe(xidBefore + (driver === 'postgres' ? 2n : 1n));
      }
      expect(await commits(answerer)).toMatchObject({ unchecked: before.unchecked + 2, unproven: before.unproven, stale: before.stale });
    });

    it('counts a device another process saw with an e-mail', async () => {
      await warm(answerer, 'mail-dev-1', 'erin@example.com');
      expect((await event(answerer, 'mail-dev-1', 'erin@example.com')).email_intel.devices_seen).toBe(1);
      await event(changer, 'mail-dev-2', 'erin@example.com');
      expect((await event(answerer, 'mail-dev-1', 'erin@example.com')).email_intel.devices_seen).toBe(2);
    });

    it('dates a device by the earliest event any process stored', async () => {
      await warm(answerer, 'old-dev', 'frank@example.com');
      expect((await event(answerer, 'old-dev', 'frank@example.com')).device.is_new).toBe(true);
      const old = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000).toISOString();
      const synced = await changer.post('/events', { event: 'login', identity: 'frank@example.com', properties: { device_id: 'old-dev', timestamp: old } });
      expect(synced.status).toBe(200);
      const now = await event(answerer, 'old-dev', 'frank@example.com');
      expect(now.device).toMatchObject({ is_new: false, age_days: 10 });
    });
  });
}

/** vigil_facts_hold (migrations 0007, 0023) undoes a write, and names the transaction id it had taken, if any. */
for (const driver of testDrivers()) {
  describe(`vigil_facts_hold (${driver})`, () => {
    let db: TestDatabase;
    let vigil: TestVigil;
    beforeAll(async () => {
      db = await createTestDatabase(driver);
      vigil = await startTestVigil(driver, {}, db);
    }, 120_000);
    afterAll(async () => {
      await vigil?.close();
      await db?.drop();
    });

    const raised = async (work: (tx: Tx) => Promise<unknown>): Promise<unknown> => {
      try {
        await vigil.database.db.transaction(work);
      } catch (error) {
        return error;
      }
      throw new Error('vigil_facts_hold raised nothing');
    };

    it('names the id of a write that had taken one, which stays undone', async () => {
      let taken: bigint | undefined;
      const error = await raised(async (tx) => {
        await tx.execute(sql`INSERT INTO device_identities (device_id, identity, first_seen, last_seen) VALUES ('held-dev', 'held@example.com', now(), now())`);
        taken = BigInt((await rows<{ x: string }>(tx, sql`SELECT pg_current_xact_id()::text AS x`))[0]!.x);
        await tx.execute(sql`SELECT vigil_facts_hold(true)`);
      });
      expect(isStaleFacts(error)).toBe(true);
      expect(staleFactsXid(error)).toBe(taken);
      const left = await rows<{ n: number }>(vigil.database.db, sql`SELECT count(*)::int AS n FROM device_identities WHERE device_id = 'held-dev'`);
      expect(left[0]!.n).toBe(0);
    });

    it('names none, and takes none, where nothing was written', async () => {
      const error = await raised((tx) => tx.execute(sql`SELECT vigil_facts_hold(true)`));
      expect(isStaleFacts(error)).toBe(true);
      expect(staleFactsXid(error)).toBeUndefined();
    });
  });
}

/**
 * Proofs on PostgreSQL, where other transactions run beside the group commits. One under way while commits look may
 * commit a change they did not see. A write whose proof failed is undone, and vigil_facts_hold names the id it had
 * taken: the retry still follows the last commit across it, so the chain of proofs goes on. The proof is made to fail by a transaction of this process's
 * that changes no fact (as the key-usage flush or an announcement may be) but is told of late, once the next batch has
 * already built its proof: it holds the idempotency key that batch claims, so the batch waits, and only then is told.
 */
describe.runIf(testDrivers().includes('postgres'))('fact cache: proofs beside other transactions (postgres)', () => {
  let db: TestDatabase;
  let server: TestVigil;

  beforeAll(async () => {
    db = await databaseAlone('postgres');
    server = await startTestVigil('postgres', { VIGIL_KEY_USAGE_FLUSH_SECONDS: '3600' }, db);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  // Each event after the announcements of the earlier ones (see the suite above).
  const event = async (eventId?: string) => {
    await server.vigil.feed.flush();
    const res = await server.post('/events', { event: 'login', identity: 'omar@example.com', properties: { device_id: 'held-dev', event_id: eventId } });
    expect(res.status).toBe(200);
  };

  it('trusts nothing its commits saw while another transaction was under way, which commits a change after them', async () => {
    const send = async () => {
      await server.vigil.feed.flush();
      const res = await server.post('/events', { event: 'login', identity: 'pat@example.com', properties: { device_id: 'open-dev' } });
      expect(res.status).toBe(200);
      return res.body as { current_tags: string[] };
    };
    for (let i = 0; i < 3; i++) await send();
    expect((await send()).current_tags).not.toContain('multi_user');
    await withClient(db.env.DATABASE_URL!, async (other) => {
      await other.query('BEGIN');
      await other.query(`INSERT INTO device_identities (device_id, identity, first_seen, last_seen) VALUES ('open-dev', 'quinn@example.com', now(), now())`);
      // Under way, with its id, while these commits look and commit: each following the one before.
      for (let i = 0; i < 3; i++) await send();
      await other.query('COMMIT');
    });
    expect((await send()).current_tags).toContain('multi_user');
  });

  it('ends the chain when an announcement fails after telling its id: a crashed server may give that id to another writer', async () => {
    const settle = () => server.vigil.feed.flush();
    for (let i = 0; i < 3; i++) await event();
    await settle(); // their announcement
    await event();
    const before = await factCacheCommits(server);
    await event();
    expect((await factCacheCommits(server)).unchecked).toBe(before.unchecked + 1);

    // The announcement of that event fails right after it told its id (a fault, here thrown by the told cache).
    const facts = server.vigil.facts;
    const apart = facts.apart;
    let failed = false;
    facts.apart = (xid) => {
      apart.call(facts, xid);
      if (failed || !new Error().stack?.includes('event-feed')) return;
      failed = true;
      throw new Error('the announcement failed after telling its id');
    };
    try {
      await settle();
    } finally {
      facts.apart = apart;
    }
    expect(failed).toBe(true);
    // No proof until two commits have followed each other again.
    await event();
    await event();
    expect((await factCacheCommits(server)).unchecked).toBe(before.unchecked + 1);
    await event();
    expect((await factCacheCommits(server)).unchecked).toBe(before.unchecked + 2);
  });

  it('names its id, and the next commit still follows the last one', async () => {
    for (let i = 0; i < 3; i++) await event();
    await new Promise((resolve) => setTimeout(resolve, 200)); // the announcements of those events
    await event();
    const before = await factCacheCommits(server);

    await withClient(db.env.DATABASE_URL!, async (holder) => {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at) SELECT id, 'held-1', 'evt_held', now() FROM api_keys`);
      const held = BigInt((await holder.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x);
      const waiting = event('held-1');
      await expect
        .poll(
          async () =>
            (await holder.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'transactionid'`)).rows[0]
              .n,
          {
            timeout: 10_000,
            interval: 20,
          },
        )
        .toBe(1);
      server.vigil.facts.apart(held); // told late: the waiting batch's proof expected the id it took
      await holder.query('ROLLBACK');
      await waiting;
    });
    expect(await factCacheCommits(server)).toMatchObject({ unproven: before.unproven + 1, unchecked: before.unchecked });
    await event();
    expect((await factCacheCommits(server)).unchecked).toBe(before.unchecked + 1);
  });
  it('goes on proving after two of its own commits overlapped, what neither of them touched', async () => {
    // Each device with a user agent and an address of its own: its handprint and its address's facts are its own too.
    const send = async (device: string, n: number, eventId?: string) => {
      await server.vigil.feed.flush();
      const res = await server.post('/events', {
        event: 'login',
        identity: `${device}@example.com`,
        properties: { device_id: device, user_agent: `agent-${device}`, ip_address: `10.0.${n}.1`, event_id: eventId },
      });
      expect(res.status).toBe(200);
    };
    for (let i = 0; i < 3; i++) for (const [n, device] of ['slow-dev', 'fast-dev', 'idle-dev'].entries()) await send(device, n);
    await send('idle-dev', 2);
    const facts = server.vigil.facts;
    await withClient(db.env.DATABASE_URL!, async (locker) => {
      // The first event's idempotency key held by a transaction told as one that changes no fact (it is undone): the
      // first commit takes its id and waits for the key, so the second (let through after VIGIL_COMMIT_OVERLAP_MS)
      // takes the next id, sees the first under way, and returns first.
      await locker.query('BEGIN');
      facts.apart(BigInt((await locker.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x));
      await locker.query(`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at) SELECT id, 'slow-1', 'evt_held', now() FROM api_keys`);
      const first = send('slow-dev', 0, 'slow-1');
      try {
        await expect
          .poll(async () => (await locker.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)).rows[0].n, { timeout: 10_000, interval: 20 })
          .toBe(1);
        await send('fast-dev', 1);
      } finally {
        await locker.query('ROLLBACK');
        await first;
      }
    });
    const before = await factCacheCommits(server);
    await send('idle-dev', 2);
    expect((await factCacheCommits(server)).unchecked, 'what neither commit touched is proven').toBe(before.unchecked + 1);
    await send('fast-dev', 1);
    expect((await factCacheCommits(server)).unchecked, 'what the second remembered, having missed the first, is compared').toBe(before.unchecked + 1);
  });

  it('goes on proving after a key-usage flush that commits looked at while it was under way', async () => {
    for (let i = 0; i < 3; i++) await event();
    await event();
    const facts = server.vigil.facts;
    const apart = facts.apart;
    await withClient(db.env.DATABASE_URL!, async (locker) => {
      // The keys' rows locked by a transaction of this process's that changes no fact, told as one: the flush cannot
      // commit until it ends, so it is under way, with its id, while the next commits look.
      await locker.query('BEGIN');
      apart.call(facts, BigInt((await locker.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x));
      await locker.query('SELECT 1 FROM api_keys FOR UPDATE');
      let told: (xid: bigint) => void = () => {};
      const toldXid = new Promise<bigint>((resolve) => (told = resolve));
      facts.apart = (xid) => {
        apart.call(facts, xid);
        if (xid !== undefined && new Error().stack?.includes('flushUsage')) told(xid);
      };
      const flushing = server.vigil.keys.flushUsage();
      try {
        // The flush tells its id while it is still under way (told only once committed, it would wait for the lock).
        let timer: NodeJS.Timeout | undefined;
        const xid = await Promise.race([toldXid, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000)))]);
        clearTimeout(timer);
        expect(xid, 'the flush told its id before it committed').toBeDefined();
        expect((await locker.query<{ s: string }>('SELECT pg_xact_status($1::text::xid8) AS s', [String(xid)])).rows[0]!.s).toBe('in progress');
        // While a transaction of this process's is under way no batch tries a proof, but these commits saw it as told.
        await event();
        await event();
      } finally {
        await locker.query('COMMIT');
        await flushing;
        facts.apart = apart;
      }
    });
    const before = await factCacheCommits(server);
    // Had the commits that saw the flush under way not known its id, they would have trusted nothing, and this event
    // would be compared again.
    await event();
    expect((await factCacheCommits(server)).unchecked).toBe(before.unchecked + 1);
  });
});

/**
 * A stale group commit is undone by an error PostgreSQL raises on purpose (vigil_facts_hold); the connection it ran
 * on is as good as before. The answerer has a pool of one connection, so a connection thrown away with the error
 * would have to be opened again for the retry.
 */
describe.runIf(testDrivers().includes('postgres'))('fact cache: a stale group commit (postgres)', () => {
  let db: TestDatabase;
  let changer: TestVigil;
  let answerer: TestVigil;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    changer = await startTestVigil('postgres', {}, db);
    answerer = await startTestVigil('postgres', { VIGIL_DB_POOL_SIZE: '1' }, db);
  }, 120_000);

  afterAll(async () => {
    await answerer?.close();
    await changer?.close();
    await db?.drop();
  });

  const event = async (server: TestVigil, identity: string) => {
    const res = await server.post('/events', { event: 'login', identity, properties: { device_id: 'pooled-dev' } });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('keeps its connection, and the retry runs on it', async () => {
    for (let i = 0; i < 3; i++) await event(answerer, 'gina@example.com');
    await event(changer, 'hank@example.com');
    const [commits, opened] = [await factCacheCommits(answerer), await connectionsOpened(answerer)];
    expect(opened).toBeGreaterThan(0);
    expect((await event(answerer, 'gina@example.com')).current_tags).toContain('multi_user');
    expect((await factCacheCommits(answerer)).stale).toBe(commits.stale + 1);
    expect(await connectionsOpened(answerer)).toBe(opened);
  });
});

/**
 * An erasure announced while the change channel was down is missed, and a renamed identity passes every later check
 * (identities are compared by count and times, not by name): so the cache starts empty once the channel listens again.
 */
describe.runIf(testDrivers().includes('postgres'))('fact cache: a lost change channel (postgres)', () => {
  let db: TestDatabase;
  let server: TestVigil;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    server = await startTestVigil('postgres', {}, db);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('is emptied once the channel listens again', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await server.post('/events', { event: 'login', identity: 'ivy@example.com', properties: { device_id: 'channel-dev' } });
      expect(res.status).toBe(200);
    }
    expect(await factCacheEntries(server)).toBeGreaterThan(0);

    const url = new URL(db.env.DATABASE_URL!);
    const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN "vigil_facts"'`, [
        decodeURIComponent(url.pathname.slice(1)),
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    // The listener comes back within its first retry (250 ms).
    await expect.poll(() => factCacheEntries(server), { timeout: 10_000, interval: 100 }).toBe(0);
  });
});

describe.each(testDrivers())('fact cache size (%s)', (driver) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(driver);
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  /**
   * The entries of a process started with VIGIL_FACT_CACHE_ENTRIES=entries after 3 events of each of 8 devices, and
   * how many of its group commits were answered from the cache. One process at a time: PGlite's data directory is one
   * process's.
   */
  async function after24Events(entries: number): Promise<{ entries: number; cached: number }> {
    const server = await startTestVigil(driver, { VIGIL_FACT_CACHE_ENTRIES: String(entries) }, db);
    try {
      for (let i = 0; i < 24; i++) {
        const device = `size-${entries}-${i % 8}`;
        const res = await server.post('/events', { event: 'login', identity: `${device}@example.com`, properties: { device_id: device } });
        expect(res.status).toBe(200);
      }
      return { entries: await factCacheEntries(server), cached: (await factCacheCommits(server)).cached };
    } finally {
      await server.close();
    }
  }

  it('keeps at most VIGIL_FACT_CACHE_ENTRIES entries, and none at 0', async () => {
    // Unbounded, the 8 devices' facts take more than 5 entries: the bound below is the setting's doing.
    expect((await after24Events(1000)).entries).toBeGreaterThan(5);
    const small = await after24Events(5);
    expect(small.entries).toBeGreaterThan(0);
    expect(small.entries).toBeLessThanOrEqual(5);
    expect(await after24Events(0)).toEqual({ entries: 0, cached: 0 });
  });
});
