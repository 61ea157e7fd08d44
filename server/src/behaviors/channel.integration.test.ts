import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { BehaviorDefinitions } from './definitions.js';
import { BehaviorsStage } from './stage.js';

describe.each(testDrivers())('behaviors whose change channel cannot be made at start, on %s', (driver) => {
  let db: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
    database = await openDatabase(loadConfig(db.env).env, { migrate: true, purpose: 'test' });
  });
  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('reloads the definitions once it listens, so one defined meanwhile by another process is counted', async () => {
    // The database refuses the stage's first subscription (a connection limit reached at start, say); the retry waits
    // for the test to let it through.
    let attempts = 0;
    let letThrough = () => {};
    const gate = new Promise<void>((resolve) => (letThrough = resolve));
    const refusingOnce = new Proxy(database, {
      get: (target, prop) =>
        prop === 'listen'
          ? async (...args: Parameters<DatabaseHandle['listen']>) => {
              if (++attempts === 1) throw new Error('too many connections');
              await gate;
              return target.listen(...args);
            }
          : Reflect.get(target, prop),
    });
    const stage = new BehaviorsStage(refusingOnce, new BehaviorDefinitions(database.db));
    await stage.init([]);
    const warnings: string[] = [];
    stage.start({ info: () => {}, warn: (_obj, msg) => void warnings.push(msg), error: () => {} });
    try {
      // Refused before the app's log was given to the stage, and told once it is.
      expect(warnings).toEqual(['behaviors: notification channel lost; reconnecting']);
      // The start's own reload is done before the behavior is defined: only the channel can bring it.
      await (stage as unknown as { work: Promise<void> }).work;
      await new BehaviorDefinitions(database.db).define({ name: 'logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600 });
      expect(stage.behaviors).toEqual([]);
      letThrough();
      await vi.waitFor(() => expect(stage.behaviors.map((b) => b.compiled.name)).toEqual(['logins_1h']), { timeout: 20_000 });
      // The first retry, or a later one if its connection timed out on a loaded machine.
      expect(attempts).toBeGreaterThanOrEqual(2);
    } finally {
      letThrough();
      await stage.close();
    }
  });
});
