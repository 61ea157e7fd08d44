import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { readAll } from '../db/compose.js';
import { rows } from '../db/rows.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil } from '../test-support/harness.js';
import { backfill } from './backfill.js';
import { writeConfig } from './test-config.js';
import { behaviorConfigSchema } from './config.js';
import { BehaviorDefinitions } from './definitions.js';
import type { EvaluationItem } from '../pipeline/stage.js';
import { BehaviorsStage } from './stage.js';

const count1h = { name: 'tx_count', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['transfer'] } as const;

describe.each(testDrivers())('behavior backfill on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
    // History stored before any behavior existed.
    const server = await startTestVigil(driver, {}, db);
    for (let i = 0; i < 25; i++) {
      const res = await server.post('/events', { event: i % 5 === 4 ? 'login' : 'transfer', identity: 'hist', properties: { amount: i } });
      expect(res.status).toBe(200);
      expect(res.body.behaviors).toEqual({});
    }
    await server.close();
  });
  afterAll(async () => db?.drop());

  it('counts stored events for a new behavior in resumable chunks, logging progress', async () => {
    const database = await openDatabase(loadConfig(db.env).env, { migrate: true, purpose: 'test' });
    try {
      const definitions = new BehaviorDefinitions(database.db);
      await definitions.syncConfig([behaviorConfigSchema.parse(count1h)]);
      const [loaded] = await definitions.loadEnabled();
      expect(loaded!.status).toBe('backfilling');
      const lines: string[] = [];
      const log = { info: (_: object, msg: string) => lines.push(msg), warn: () => {}, error: () => {} };
      // Stopped after the first chunk, as by a shutdown: the cursor is kept and the next run resumes.
      let chunks = 0;
      expect(await backfill(loaded!, { db: database.db, log, chunkSize: 10, progressEveryMs: 0, stopped: () => chunks++ >= 1 })).toBe(false);
      expect((await definitions.list())[0]!.backfilled_events).toBe(10);
      expect(await backfill(loaded!, { db: database.db, log, chunkSize: 10, progressEveryMs: 0, stopped: () => false })).toBe(true);
      expect(lines).toContain('behavior tx_count: backfill of 25 stored events started');
      expect(lines).toContain('behavior tx_count: backfill 20/25 (80%)');
      expect(lines).toContain('behavior tx_count: backfill done, 25 events counted');
      const [summary] = await definitions.list();
      expect(summary).toMatchObject({ name: 'tx_count', status: 'ready', backfilled_events: 25, source: 'config' });
      const [points] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM behavior_points`);
      expect(points!.n).toBe(20); // the 20 transfers, each once despite the interruption
    } finally {
      await database.close();
    }
  });

  it('answers with the backfilled history, and backfills a changed definition by itself', async () => {
    let server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors: [count1h] }) }, db);
    let res = await server.post('/events', { event: 'transfer', identity: 'hist', properties: { amount: 1 } });
    expect(res.body.behaviors.tx_count).toEqual({ count: 21, sum: null, unique: null, values: null });
    expect(res.body.warnings).toEqual([]);
    await server.close();

    // Changed: transfers and logins. A new definition, counted again from every stored event.
    const changed = { ...count1h, filters: [] };
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors: [changed] }) }, db);
    try {
      const stage = server.vigil.ingestor['options'].risk.stages.find((s) => s.name === 'behaviors') as BehaviorsStage;
      for (let i = 0; i < 200 && stage.behaviors.some((b) => b.status !== 'ready'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stage.behaviors.map((b) => b.status)).toEqual(['ready']);
      res = await server.post('/events', { event: 'login', identity: 'hist' });
      expect(res.body.behaviors.tx_count.count).toBe(27); // 26 stored + this one
      // The replaced definition's data is purged.
      const ids = await rows<{ id: string }>(server.database.db, sql`SELECT DISTINCT behavior_id AS id FROM behavior_points`);
      expect(ids.map((r) => r.id)).toEqual([stage.behaviors[0]!.compiled.id]);
    } finally {
      await server.close();
    }
  });

  it('stops warning once the database has the backfill done, before this process has heard of it', async () => {
    const database = await openDatabase(loadConfig(db.env).env, { migrate: true, purpose: 'test' });
    // Not started: no background work reloads what the stage loaded at init.
    const stage = new BehaviorsStage(database, new BehaviorDefinitions(database.db));
    const now = new Date(Date.now() + 1000);
    const transfer = {
      eventId: 'evt_test',
      keyId: 'key_test',
      handprintId: 'hp_test',
      device: null,
      ageDays: 0,
      isNew: false,
      event: { name: 'transfer', identity: 'hist', deviceId: null, ip: null, sessionId: null, properties: {}, occurredAt: now, receivedAt: now },
    } as unknown as EvaluationItem;
    // One batch as the ingest pipeline runs it: the stage's read, then its evaluation, in one transaction.
    const warningsOfABatch = () =>
      database.db.transaction(async (tx) => {
        const read = stage.read();
        const [facts] = read ? await readAll(tx, [read]) : [null];
        const { outputs } = await stage.evaluate([transfer], { db: tx, inTransaction: true, facts: facts ?? null, earlier: [] });
        return outputs[0]!.warnings?.map((w) => w.code) ?? [];
      });
    try {
      await stage.init([behaviorConfigSchema.parse({ ...count1h, name: 'tx_count_elsewhere' })]);
      expect(await warningsOfABatch()).toEqual(['behavior_backfilling']);
      // As another process's backfill, or this one's whose commit has not been acknowledged yet, leaves it.
      await database.db.execute(sql`UPDATE behavior_definitions SET status = 'ready' WHERE name = 'tx_count_elsewhere' AND enabled`);
      expect(stage.behaviors.map((b) => b.status)).toEqual(['backfilling']);
      expect(await warningsOfABatch()).toEqual([]);
    } finally {
      await stage.close();
      await database.close();
    }
  });
});
