import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil, type TestResponse } from '../test-support/harness.js';
import { storedByKey } from '../test-support/stored-events.js';

/**
 * On PostgreSQL a group commit starts beside the one in flight only after VIGIL_COMMIT_OVERLAP_MS, so that what
 * arrives meanwhile is written in one larger commit. A commit stuck behind a lock must not hold every other event
 * of the process with it: once that delay has passed, the next batch goes out beside it.
 */
describe.runIf(testDrivers().includes('postgres'))('a group commit stuck behind a lock on postgres', () => {
  let db: TestDatabase;
  let vigil: TestVigil;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    vigil = await startTestVigil('postgres', {}, db);
  });
  afterAll(async () => {
    await vigil?.close();
    await db?.drop();
  });

  const post = (eventId: string) => vigil.post('/events', { event: 'login', properties: { event_id: eventId, device_id: `device-${eventId}` } });

  it('lets the next batch through beside it, and both are stored once', async () => {
    const first = await post('overlap-first');
    expect(first.status).toBe(200);
    const other = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await other.connect();
    try {
      const { rows } = await other.query<{ key_id: string }>(`SELECT key_id FROM event_keys WHERE idempotency_key = 'overlap-first'`);
      // Another transaction holding the idempotency key uncommitted: the batch claiming it waits for that one.
      await other.query('BEGIN');
      await other.query(`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at) VALUES ($1, 'overlap-held', 'evt_held', now())`, [
        rows[0]!.key_id,
      ]);
      let heldAnswered = false;
      const held = post('overlap-held').finally(() => {
        heldAnswered = true;
      });
      // Let the held event's batch reach its claim before the free one arrives.
      await new Promise((r) => setTimeout(r, 200));
      const free = await Promise.race([
        post('overlap-free'),
        new Promise<TestResponse>((_, reject) => setTimeout(() => reject(new Error('the free event waited for the held commit')), 10_000)),
      ]);
      expect(free.status).toBe(200);
      expect(heldAnswered).toBe(false);

      await other.query('ROLLBACK');
      expect((await held).status).toBe(200);
    } finally {
      await other.end();
    }
    const stored = await storedByKey(db.env, 'overlap-');
    expect(Object.fromEntries(stored)).toEqual({ 'overlap-first': 1, 'overlap-held': 1, 'overlap-free': 1 });
  });
});
