import { and, eq } from 'drizzle-orm';
import { events, handprintAliases, handprints } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { eventConditions } from '../reporting/event-filter.js';
import { legacyServerHandprint } from './server-signals.js';

const DAY = 24 * 60 * 60 * 1000;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0';
const signals = { userAgent: UA, acceptLanguage: 'fr-FR', ip: '198.51.100.23' };
const event = { event: 'login', properties: { ip_address: signals.ip } };
const headers = { 'user-agent': UA, 'accept-language': 'fr-FR,fr;q=0.9' };

describe.each(testDrivers())('server-side handprint keyed per installation on %s', (driver) => {
  let testDb: TestDatabase;
  let server: TestVigil;
  let other: TestVigil;
  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    server = await startTestVigil(driver, {}, testDb);
    other = await startTestVigil(driver);
  });
  afterAll(async () => {
    await server?.close();
    await other?.close();
    await testDb?.drop();
  });

  const handprintOf = async (vigil: TestVigil) => {
    const res = await vigil.post('/events', event, { headers });
    expect(res.status).toBe(200);
    return res.body.handprint_id as string;
  };
  const eventsOf = async (handprintId: string) =>
    (
      await server.database.db
        .select({ id: events.id })
        .from(events)
        .where(and(...eventConditions({ handprintId })))
    ).length;

  it('gives the same id within an installation, another in a second one, in the browser handprints format', async () => {
    const id = await handprintOf(server);
    expect(id).toMatch(/^hp_[a-z2-7]{26}$/);
    expect(await handprintOf(server)).toBe(id);
    expect(await handprintOf(other)).not.toBe(id);
  });

  it('links a handprint stored under the old unkeyed id to the keyed one, keeping its first sighting', async () => {
    const id = await handprintOf(server);
    // What an earlier version stored for the same inputs: the events and the handprint under the unkeyed id.
    const legacy = legacyServerHandprint(signals);
    const firstSeen = new Date(Date.now() - 10 * DAY);
    await server.database.db.update(events).set({ handprintId: legacy }).where(eq(events.handprintId, id));
    await server.database.db.update(handprints).set({ handprintId: legacy, firstSeen }).where(eq(handprints.handprintId, id));
    const before = await eventsOf(legacy);
    expect(before).toBeGreaterThan(0);
    expect(await eventsOf(id)).toBe(0);

    // The new version starts on that database and meets the same user agent, language and network.
    await server.close();
    server = await startTestVigil(driver, {}, testDb);
    expect(await handprintOf(server)).toBe(id);

    const aliases = await server.database.db.select().from(handprintAliases).where(eq(handprintAliases.legacyId, legacy));
    expect(aliases.map((a) => a.handprintId)).toEqual([id]);
    const [row] = await server.database.db.select().from(handprints).where(eq(handprints.handprintId, id));
    expect(row!.firstSeen.getTime()).toBe(firstSeen.getTime());
    // Asked by either id, the events before and after the change are one handprint's.
    expect(await eventsOf(id)).toBe(before + 1);
    expect(await eventsOf(legacy)).toBe(before + 1);
    expect(await server.database.db.select().from(handprintAliases)).toHaveLength(1);
  });
});
