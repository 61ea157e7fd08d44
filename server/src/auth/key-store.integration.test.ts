import { eq } from 'drizzle-orm';
import { apiKeys } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { KeyStore } from './key-store.js';
import { sha256Hex } from './secrets.js';

describe.each(testDrivers())('KeyStore on %s', (driver) => {
  let db: TestDatabase;
  let server: TestVigil;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
    server = await startTestVigil(driver, {}, db);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('stores only the SHA-256 and a display prefix', async () => {
    const created = await server.vigil.keys.create('write', 'hash check');
    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.hash).toBe(sha256Hex(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row!.displayPrefix).toBe(created.key.slice(0, 13));
  });

  it('records last use without a write per request', async () => {
    const created = await server.vigil.keys.create('write', 'usage');
    await server.post('/events', { event: 'x' }, { key: created.key });
    const read = async () => (await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]!.lastUsedAt;
    expect(await read()).toBeNull();
    await server.vigil.keys.flushUsage();
    expect(await read()).toBeInstanceOf(Date);
  });

  it('caches no read that a revocation notice overtook, so the key is read again and refused', async () => {
    // The store's channel is this test's, so that the notice comes while the read is under way, as the notice of a
    // revocation committed just after the read's snapshot does; nothing else tells the store afterwards.
    let notify: ((hash: string) => void) | undefined;
    const database = new Proxy(server.database, {
      get: (target, prop) =>
        prop === 'listen'
          ? async (_channel: string, onMessage: (hash: string) => void) => {
              notify = onMessage;
              return async () => {};
            }
          : Reflect.get(target, prop),
    });
    const keys = new KeyStore(database);
    await keys.start();
    try {
      const created = await server.vigil.keys.create('write', 'overtaken');
      const reading = keys.check(created.key);
      notify!(sha256Hex(created.key));
      expect((await reading).ok).toBe(true);
      await server.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, created.id));
      expect(await keys.check(created.key)).toEqual({ ok: false, reason: 'revoked' });
      // The control: a read no notice overtook is cached, so the same revocation unannounced goes unseen.
      const quiet = await server.vigil.keys.create('write', 'not overtaken');
      expect((await keys.check(quiet.key)).ok).toBe(true);
      await server.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, quiet.id));
      expect((await keys.check(quiet.key)).ok).toBe(true);
    } finally {
      await keys.stop();
    }
  });
});

// Only PostgreSQL has more than one process per database; the suite exists wherever PostgreSQL is under test.
if (testDrivers().includes('postgres')) {
  describe('KeyStore across processes on postgres', () => {
    let db: TestDatabase;
    let server: TestVigil;
    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      server = await startTestVigil('postgres', {}, db);
    });
    afterAll(async () => {
      await server?.close();
      await db?.drop();
    });

    it('revokes at once in another process on the same database', async () => {
      // A second, independent key store with its own connection and cache, as another Vigil process has.
      const other = await openDatabase(loadConfig({ ...db.env }).env, { migrate: false, purpose: 'second' });
      const otherKeys = new KeyStore(other);
      await otherKeys.start();
      try {
        const created = await server.vigil.keys.create('write', 'cross-process');
        expect((await otherKeys.check(created.key)).ok).toBe(true);
        expect((await otherKeys.check(created.key)).ok).toBe(true); // now cached
        await server.vigil.keys.revoke(created.id);
        const deadline = Date.now() + 5000;
        let check = await otherKeys.check(created.key);
        while (check.ok && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
          check = await otherKeys.check(created.key);
        }
        expect(check).toEqual({ ok: false, reason: 'revoked' });
      } finally {
        await otherKeys.stop();
        await other.close();
      }
    });
  });
}
