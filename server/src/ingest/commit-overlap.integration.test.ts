import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestResponse, type TestVigil } from '../test-support/harness.js';
import { storedByKey } from '../test-support/stored-events.js';

/** Long enough that an answer sooner than this cannot have waited for it, on any machine. */
const OVERLAP_MS = 1500;

/**
 * A group commit starts beside the one in flight only once that one has run VIGIL_COMMIT_OVERLAP_MS, so that what
 * arrives meanwhile is written in one larger commit. A commit stuck behind a lock must not hold every other event
 * of the process with it: once that delay has passed, the next batch goes out beside it. Only PostgreSQL has
 * another connection to hold a lock from.
 */
describe.runIf(testDrivers().includes('postgres'))('a group commit stuck behind a lock on postgres', () => {
  let db: TestDatabase;
  let vigil: TestVigil;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    vigil = await startTestVigil('postgres', { VIGIL_COMMIT_OVERLAP_MS: String(OVERLAP_MS) }, db);
  });
  afterAll(async () => {
    try {
      await vigil?.close();
    } finally {
      await db?.drop();
    }
  });

  const post = (eventId: string) => vigil.post('/events', { event: 'login', properties: { event_id: eventId, device_id: `device-${eventId}` } });

  /** Resolves once a backend of this database waits for a lock: the held event's commit has reached its claim. */
  async function blockedOnLock(client: pg.Client): Promise<void> {
    for (let tries = 0; tries < 400; tries++) {
      const { rows } = await client.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (rows.length > 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the held event never waited for the lock');
  }

  it('waits for it a while, then lets the next batch through beside it; both are stored once', async () => {
    expect((await post('overlap-first')).status).toBe(200);
    const other = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await other.connect();
    let held: Promise<TestResponse> | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const { rows } = await other.query<{ key_id: string }>(`SELECT key_id FROM event_keys WHERE idempotency_key = 'overlap-first'`);
      // Another transaction holding the idempotency key uncommitted: the batch claiming it waits for that one.
      await other.query('BEGIN');
      await other.query(`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at) VALUES ($1, 'overlap-held', 'evt_held', now())`, [
        rows[0]!.key_id,
      ]);
      let heldAnswered = false;
      const heldSent = performance.now();
      held = post('overlap-held').finally(() => {
        heldAnswered = true;
      });
      await blockedOnLock(other);

      const free = await Promise.race([
        post('overlap-free'),
        new Promise<TestResponse>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the free event waited for the held commit')), OVERLAP_MS + 10_000);
        }),
      ]);
      expect(free.status).toBe(200);
      expect(heldAnswered).toBe(false);
      // It waited for the overlap, counted from the held commit's start, which came after heldSent: a bound that no
      // slow machine can break, only a commit started at once.
      expect(performance.now() - heldSent).toBeGreaterThanOrEqual(OVERLAP_MS);

      await other.query('ROLLBACK');
      expect((await held).status).toBe(200);
    } finally {
      clearTimeout(timer);
      // Ending the connection rolls its transaction back, which frees the held event whatever failed.
      await other.end();
      await held?.catch(() => {});
    }
    const stored = await storedByKey(db.env, 'overlap-');
    expect(Object.fromEntries(stored)).toEqual({ 'overlap-first': 1, 'overlap-held': 1, 'overlap-free': 1 });
  });
});
