import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import type { StoredOutcome } from '../ingest/store.js';
import type { Insights } from '../pipeline/insights.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil } from '../test-support/harness.js';
import { EVENT_ADDED_CHANNEL, EventFeed } from './event-feed.js';

const stored = (id: string): StoredOutcome => ({ insights: { event_id: id } as Insights, replayed: false });

// Only PostgreSQL announces through NOTIFY (PGlite's one process hands events over directly); the PGlite-only pass of
// the suite runs none of it.
describe.runIf(testDrivers().includes('postgres'))('EventFeed announcements on postgres', () => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let listener: pg.Client;
  const payloads: string[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    database = await openDatabase(loadConfig({ ...testDb.env }).env, { migrate: true, purpose: 'test' });
    listener = new pg.Client({ connectionString: testDb.env.DATABASE_URL });
    await listener.connect();
    listener.on('notification', (n) => n.channel === EVENT_ADDED_CHANNEL && payloads.push(n.payload ?? ''));
    await listener.query(`LISTEN ${EVENT_ADDED_CHANNEL}`);
  });
  afterAll(async () => {
    await listener?.end();
    await database?.close();
    await testDb?.drop();
  });
  const received = async (ids: number, withinMs = 3_000) => {
    const until = Date.now() + withinMs;
    while (Date.now() < until && payloads.join(',').split(',').filter(Boolean).length < ids) await new Promise((r) => setTimeout(r, 10));
    return payloads.splice(0);
  };

  it('announces the events stored within its interval with one NOTIFY, and what is pending when it stops', async () => {
    const feed = new EventFeed({ database, maxSubscriptions: 1, maxPerAccount: 1, maxQueue: 1, announceEveryMs: 1_000 });
    // Commits of their own, a few ms apart, as at a steady rate: one notification for all of them.
    for (const id of ['evt_a', 'evt_b', 'evt_c']) {
      feed.stored(stored(id));
      await new Promise((r) => setTimeout(r, 5));
    }
    feed.stored({ ...stored('evt_replayed'), replayed: true });
    expect(await received(3)).toEqual(['evt_a,evt_b,evt_c']);
    // Stopping announces what waits for the interval at once (the process may end right after).
    feed.stored(stored('evt_last'));
    await feed.stop();
    expect(await received(1, 500)).toEqual(['evt_last']);
  });

  it('waits VIGIL_LIVE_ANNOUNCE_MS to announce what a serving process stored', async () => {
    const server = await startTestVigil('postgres', { VIGIL_LIVE_ANNOUNCE_MS: '5000' }, testDb);
    const ids: string[] = [];
    try {
      // Events 100 ms apart: at the 50 ms default each would be announced alone, before the process stops.
      for (const identity of ['ann-1', 'ann-2', 'ann-3']) {
        const res = await server.post('/events', { event: 'login', identity });
        expect(res.status).toBe(200);
        ids.push(res.body.event_id as string);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(payloads).toEqual([]);
    } finally {
      await server.close();
    }
    expect(await received(3)).toEqual([ids.join(',')]);
  });
});
