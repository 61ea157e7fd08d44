import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../behaviors/test-config.js';
import type { Db } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { newId } from '../ids.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { EVENTS, POINTS, listPartitions, partitionAt, partitionStart } from './partitions.js';
import { RETENTION_LOCK_KEY, runRetention, type RetentionOptions, type RetentionReport } from './run.js';
import { RetentionJob } from './job.js';
import { storageStats } from './stats.js';

const DAY = 86_400_000;
const behaviors = [{ name: 'logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600 }];

async function retention(db: Db, options: RetentionOptions): Promise<RetentionReport> {
  const report = await runRetention(db, options);
  expect(report.ran).toBe(true);
  return report;
}

const scalar = async (db: Db, query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(db, query))[0]!.n);

describe.each(testDrivers())('partitions and retention on %s', (driver) => {
  let testDb: TestDatabase;
  let server: TestVigil;
  let db: Db;
  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors }), VIGIL_RETENTION_START_DELAY_SECONDS: '0' }, testDb);
    db = server.database.db;
    // The server's own run at start would otherwise race the runs below (and drop what they made in the past).
    await server.vigil.retention.firstRun;
  });
  afterAll(async () => {
    await server?.close();
    await testDb?.drop();
  });

  const send = async (properties: Record<string, unknown>, identity = `${driver}-user`) => {
    const res = await server.post('/events', { event: 'login', identity, properties });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const inTable = (table: string, key: string) => scalar(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE idempotency_key = ${key}`);

  it('has this month and the next two (events) and today and the next week (points) from the install', async () => {
    const now = Date.now();
    const events = (await listPartitions(db, EVENTS)).map((p) => p.name);
    for (let i = 0; i <= 2; i++) expect(events).toContain(partitionAt(EVENTS, partitionStart(EVENTS, now, i)).name);
    const points = (await listPartitions(db, POINTS)).map((p) => p.name);
    for (let i = 0; i <= 7; i++) expect(points).toContain(partitionAt(POINTS, partitionStart(POINTS, now, i)).name);
    // A fresh event lands in its month's partition, not the default.
    await send({ event_id: 'fresh' });
    expect(await inTable(partitionAt(EVENTS, partitionStart(EVENTS, now)).name, 'fresh')).toBe(1);
    expect(await inTable('events_default', 'fresh')).toBe(0);
  });

  it('stores and answers events whose month has no partition, counts them, and drops them once past the policy', async () => {
    const now = Date.now();
    const u = `${driver}-late`;
    const old = await send({ event_id: 'late-3y', timestamp: new Date(now - 3 * 365 * DAY).toISOString() }, u);
    expect(old.behaviors.logins_1h.count).toBe(1);
    await send({ event_id: 'late-60d', timestamp: new Date(now - 60 * DAY).toISOString() }, u);
    expect(await inTable('events_default', 'late-3y')).toBe(1);
    expect(await inTable('events_default', 'late-60d')).toBe(1);
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM behavior_points_default`)).toBeGreaterThanOrEqual(2);
    // Stored means answered again for a retry, from the default partition.
    const retried = await send({ event_id: 'late-3y' }, u);
    expect(retried.event_id).toBe(old.event_id);

    const yearly = await retention(db, { retentionDays: 365 });
    expect(yearly.deletedRows.events_default).toBe(1);
    expect(await inTable('events', 'late-3y')).toBe(0);
    expect(await inTable('event_keys', 'late-3y')).toBe(0);
    expect(await inTable('events', 'late-60d')).toBe(1);
    // Points of days older than the longest window (1 h) and its margin are gone, whatever the policy.
    expect(yearly.deletedRows.behavior_points_default).toBeGreaterThanOrEqual(2);
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM behavior_points WHERE at < ${now - 2 * DAY}`)).toBe(0);

    await retention(db, { retentionDays: 30 });
    expect(await inTable('events', 'late-60d')).toBe(0);
    expect(await inTable('event_keys', 'late-60d')).toBe(0);
    // Its key went with it: the same event_id is a new event now.
    const again = await send({ event_id: 'late-3y' }, u);
    expect(again.event_id).not.toBe(old.event_id);
  });

  it('keeps a retried event once across partitions, whichever copy carries a timestamp', async () => {
    const now = Date.now();
    const longAgo = new Date(now - 400 * DAY).toISOString();
    const first = await send({ event_id: 'idem-now' });
    const retry = await send({ event_id: 'idem-now', timestamp: longAgo });
    expect(retry.event_id).toBe(first.event_id);
    expect(await inTable('events', 'idem-now')).toBe(1);

    const oldFirst = await send({ event_id: 'idem-old', timestamp: longAgo });
    const nowRetry = await send({ event_id: 'idem-old' });
    expect(nowRetry.event_id).toBe(oldFirst.event_id);
    expect(await inTable('events', 'idem-old')).toBe(1);
    expect(await inTable('event_keys', 'idem-old')).toBe(1);
  });

  it('drops whole partitions older than the policy, and the size report shows the space come back', async () => {
    const now = Date.now();
    const then = now - 2 * 365 * DAY;
    // A run as of two years ago made that period's partitions, as the daily job did at the time.
    const past = await retention(db, { retentionDays: 0, now: then });
    const month = partitionAt(EVENTS, partitionStart(EVENTS, then, 1));
    expect(past.created).toContain(month.name);
    const items = Array.from({ length: 200 }, (_, i) => ({
      event: 'login',
      identity: `${driver}-old-${i % 7}`,
      properties: { event_id: `old-${i}`, timestamp: new Date(month.start + i * 60_000).toISOString(), note: 'x'.repeat(200) },
    }));
    for (let i = 0; i < items.length; i += 100) {
      const res = await server.post('/events/batch', { events: items.slice(i, i + 100) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.results.every((r: { status: number }) => r.status === 200)).toBe(true);
    }
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(month.name)}`)).toBe(200);

    const before = (await storageStats(db)).tables.find((t) => t.table === 'events')!;
    const report = await retention(db, { retentionDays: 365 });
    const dropped = report.dropped.filter((d) => d.table === 'events').map((d) => d.partition);
    expect(dropped).toContain(month.name);
    const after = (await storageStats(db)).tables.find((t) => t.table === 'events')!;
    // Besides the month, the default partition lost what it held older than the policy (an earlier test's event).
    expect(after.rows).toBe(before.rows - 200 - report.deletedRows.events_default!);
    expect(after.partitions).toBe(before.partitions - dropped.length);
    expect(after.bytes).toBeLessThan(before.bytes);
    expect(before.bytes - after.bytes).toBeGreaterThanOrEqual(report.dropped.filter((d) => d.table === 'events').reduce((s, d) => s + d.bytes, 0));
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM event_keys WHERE idempotency_key LIKE 'old-%'`)).toBe(0);
  });

  // PGlite is one process: only PostgreSQL has others to keep out.
  if (driver === 'postgres')
    it('runs in one process at a time: another that holds the lock makes this run skip', async () => {
      const other = new pg.Client({ connectionString: testDb.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
        const skipped = await runRetention(db, { retentionDays: 1 });
        expect(skipped).toMatchObject({ ran: false, created: [], dropped: [] });
        await other.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
        expect((await runRetention(db, { retentionDays: 365 })).ran).toBe(true);
      } finally {
        await other.end();
      }
    });

  // Only PostgreSQL has another connection to commit an event while the run is between its snapshot and the drop.
  if (driver === 'postgres')
    it('drops the key of an event committed into a doomed partition during the run, so its retry is stored', async () => {
      const then = Date.now() - 3 * 365 * DAY;
      await retention(db, { retentionDays: 0, now: then });
      const month = partitionAt(EVENTS, partitionStart(EVENTS, then, 1));
      await send({ event_id: 'orphan-probe' });
      const keyId = (await rows<{ key_id: string }>(db, sql`SELECT key_id FROM events WHERE idempotency_key = 'orphan-probe'`))[0]!.key_id;
      const at = new Date(month.start + 60_000).toISOString();

      // Another process is storing an old event: its key and row are written, not yet committed.
      const other = new pg.Client({ connectionString: testDb.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query(`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at) VALUES ($1, 'orphan-1', 'evt_orphan1', $2)`, [keyId, at]);
        await other.query(
          `INSERT INTO events (id, key_id, idempotency_key, name, handprint_id, properties, risk_score, response, occurred_at, received_at)
         VALUES ('evt_orphan1', $1, 'orphan-1', 'login', 'hp', '{}', 0, '{}', $2, now())`,
          [keyId, at],
        );
        const run = runRetention(db, { retentionDays: 365 });
        // The run has deleted keys with a snapshot that does not see the insert and now waits to drop the partition
        // (the drop locks the partitioned table first, which the insert holds).
        for (let waiting = false, tries = 0; !waiting; tries++) {
          expect(tries).toBeLessThan(250);
          await new Promise((r) => setTimeout(r, 20));
          const [row] = (
            await other.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation IN ('events'::regclass, $1::regclass)`, [month.name])
          ).rows;
          waiting = row.n > 0;
        }
        await other.query('COMMIT');
        const report = await run;
        expect(report.dropped.map((d) => d.partition)).toContain(month.name);
      } finally {
        await other.end();
      }
      expect(await inTable('event_keys', 'orphan-1')).toBe(0);

      const res = await server.post('/events', { event: 'login', identity: `${driver}-user`, properties: { event_id: 'orphan-1', timestamp: at } });
      expect(res.status, res.text).toBe(200);
      expect(await inTable('events', 'orphan-1')).toBe(1);
    });

  it('deletes settled webhook messages past their policy with their delivery log, a batch at a time, and keeps the rest', async () => {
    const now = Date.now();
    const old = now - 31 * DAY;
    // Due tomorrow: the server's delivery worker would otherwise claim the pending one now (and cancel it, since its
    // subscription does not exist).
    const message = (id: string, status: string) =>
      sql`INSERT INTO webhook_messages (id, subscription_id, type, payload, status, next_attempt_at)
          VALUES (${id}, 'whs_x', 'key.created', '{}'::jsonb, ${status}, now() + interval '1 day')`;
    const attempt = (message: string) =>
      sql`INSERT INTO webhook_attempts (id, message_id, subscription_id, attempt, duration_ms) VALUES (${newId('wha')}, ${message}, 'whs_x', 1, 5)`;
    const kept = { pending: newId('msg', old), recent: newId('msg', now - DAY) };
    for (const status of ['delivered', 'dead', 'cancelled']) {
      const id = newId('msg', old);
      await db.execute(message(id, status));
      await db.execute(attempt(id));
    }
    await db.execute(message(kept.pending, 'pending'));
    await db.execute(attempt(kept.pending));
    await db.execute(message(kept.recent, 'delivered'));
    await db.execute(attempt(kept.recent));
    // More than one batch: every run deletes a few thousand rows per transaction until none are left.
    await db.execute(
      sql`INSERT INTO webhook_messages (id, subscription_id, type, payload, status)
          SELECT 'msg_00' || lpad(i::text, 24, '0'), 'whs_x', 'key.created', '{}'::jsonb, 'delivered' FROM generate_series(1, 5003) i`,
    );

    expect((await retention(db, { retentionDays: 365, webhookRetentionDays: 0, now })).deletedRows.webhook_messages).toBeUndefined();
    const report = await retention(db, { retentionDays: 365, webhookRetentionDays: 30, now });
    expect(report.webhooksCutoff).toBe(new Date(now - 30 * DAY).toISOString());
    expect(report.deletedRows).toMatchObject({ webhook_messages: 5006, webhook_attempts: 3 });
    expect(await rows<{ id: string }>(db, sql`SELECT id FROM webhook_messages ORDER BY id`)).toEqual([{ id: kept.pending }, { id: kept.recent }]);
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM webhook_attempts`)).toBe(2);
  });

  it('the daily job runs at start and logs what it did', async () => {
    const lines: string[] = [];
    const log = { info: (_: object, msg: string) => lines.push(msg), warn: (_: object, msg: string) => lines.push(`WARN ${msg}`), error() {} };
    const job = new RetentionJob({ db, retentionDays: 365, log });
    job.start();
    await job.firstRun;
    await job.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^retention: events kept from \d{4}-.*behavior points from \d{4}-.*settled webhook messages from the beginning/);
  });

  it('the job with a start delay does not run at start; closing it before then ends it without a run', async () => {
    const lines: string[] = [];
    const log = { info: (_: object, msg: string) => lines.push(msg), warn: (_: object, msg: string) => lines.push(`WARN ${msg}`), error() {} };
    const job = new RetentionJob({ db, retentionDays: 365, log, startDelayMs: 3_600_000 });
    job.start();
    // A whole run by another caller meanwhile: the job, had it started at once, would have logged by its end.
    await retention(db, { retentionDays: 365 });
    await job.close();
    await job.firstRun;
    expect(lines).toEqual([]);
  });

  it('creates the partitions ahead as time goes on, and moves rows the default held in their range', async () => {
    const later = Date.now() + 120 * DAY;
    const far = partitionAt(EVENTS, partitionStart(EVENTS, later, 2));
    // An event that arrived before its month had a partition waits in the default.
    await db.execute(sql`INSERT INTO events_default (id, key_id, name, handprint_id, properties, risk_score, response, occurred_at, received_at)
      SELECT 'evt_ahead', id, 'login', 'hp_x', '{}', 0, '{}', ${new Date(far.start + 1000).toISOString()}::timestamptz, now() FROM api_keys LIMIT 1`);
    const report = await retention(db, { retentionDays: 365, now: later });
    expect(report.created).toContain(far.name);
    expect(report.created).toContain(partitionAt(POINTS, partitionStart(POINTS, later, 7)).name);
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(far.name)} WHERE id = 'evt_ahead'`)).toBe(1);
    expect(await scalar(db, sql`SELECT count(*)::int AS n FROM events_default WHERE id = 'evt_ahead'`)).toBe(0);
    // A second run finds nothing left to make.
    expect((await retention(db, { retentionDays: 365, now: later })).created).toEqual([]);
  });

  it("compresses an event's jsonb with lz4 where the server has it, in the partitions of the install and those made later", async () => {
    const lz4 = await scalar(db, sql`SELECT ('lz4' = ANY (enumvals))::int AS n FROM pg_settings WHERE name = 'default_toast_compression'`);
    // Debian's PostgreSQL has lz4, PGlite does not (it keeps pglz): the test must see both.
    expect(lz4).toBe(driver === 'postgres' ? 1 : 0);
    await retention(db, { retentionDays: 365, now: Date.now() + 200 * DAY });
    const settings = await rows<{ table: string; column: string; method: string }>(
      db,
      sql`SELECT a.attrelid::regclass::text AS table, a.attname AS column, a.attcompression::text AS method FROM pg_attribute a
          WHERE a.attrelid IN (SELECT 'events'::regclass UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = 'events'::regclass)
            AND a.attname IN ('response', 'properties')`,
    );
    expect(settings.length).toBeGreaterThan(2 * 5);
    expect(settings.filter((s) => s.method !== (lz4 ? 'l' : ''))).toEqual([]);
    // A row past the TOAST threshold is compressed with it.
    const id = `${driver}-large`;
    await send({ event_id: id, note: 'x'.repeat(2000) + Math.random() });
    const method = await rows<{ method: string | null }>(db, sql`SELECT pg_column_compression(properties) AS method FROM events WHERE idempotency_key = ${id}`);
    expect(method[0]!.method).toBe(lz4 ? 'lz4' : 'pglz');
  });
});

describe.each(testDrivers())('behavior data kept for late events on %s', (driver) => {
  let testDb: TestDatabase;
  let server: TestVigil;
  // A short counter beside a long one: the long one keeps every point for a week, the short one's buckets go
  // after its own window and a day.
  const counters = [
    { name: 'logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600 },
    { name: 'logins_7d', group_by: 'identity', operation: 'count', window_duration_seconds: 7 * 86_400 },
  ];
  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors: counters }), VIGIL_RETENTION_START_DELAY_SECONDS: '0' }, testDb);
    await server.vigil.retention.firstRun;
  });
  afterAll(async () => {
    await server?.close();
    await testDb?.drop();
  });

  it('answers an event up to a day late with its whole window after a retention run', async () => {
    const now = Date.now();
    const identity = `${driver}-offline`;
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    const send = async (msAgo: number) => {
      const res = await server.post('/events', { event: 'login', identity, properties: { timestamp: at(msAgo) } });
      expect(res.status, res.text).toBe(200);
      return res.body.behaviors as Record<string, { count: number }>;
    };
    // Synced from a phone that was offline for a day: two logins 23 h 40 min and 23 h 20 min ago.
    const hour = 3_600_000;
    await send(23 * hour + 40 * 60_000);
    await send(23 * hour + 20 * 60_000);
    const report = await retention(server.database.db, { retentionDays: 365, now });
    expect(report.deletedRows.behavior_buckets ?? 0).toBe(0);
    // One more, 23 h ago, in the same sync: its hour still holds both.
    const late = await send(23 * hour);
    expect(late.logins_1h!.count).toBe(3);
    expect(late.logins_7d!.count).toBe(3);
  });

  it('keeps the points of the longest window and a day under a policy of one day', async () => {
    const now = Date.now();
    const identity = `${driver}-short-policy`;
    const res = await server.post('/events', { event: 'login', identity, properties: { timestamp: new Date(now - 3 * DAY).toISOString() } });
    expect(res.status, res.text).toBe(200);
    const db = server.database.db;
    const points = (table: string) => scalar(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE group_key = ${identity}`);
    // That day has no partition of points (the install made today's and the next week's): a policy's cutoff would
    // delete the rows to the millisecond.
    expect(await points('behavior_points_default')).toBe(2);
    const report = await retention(db, { retentionDays: 1, now });
    expect(report.eventsCutoff).toBe(new Date(now - DAY).toISOString());
    expect(report.pointsCutoff).toBe(new Date(now - 8 * DAY).toISOString());
    expect(await points('behavior_points')).toBe(2);
  });
});
