import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/handle.js';
import { scratchPglite } from '../test-support/databases.js';
import { RowEstimates } from './estimates.js';

describe('RowEstimates', () => {
  let client: PGlite;
  let close: () => Promise<void>;
  let db: Db;
  beforeAll(async () => {
    ({ client, close } = await scratchPglite());
    await client.exec('CREATE TABLE events (id int, body text); CREATE TABLE devices (id int); CREATE TABLE registrations (id int);');
    db = drizzle(client) as unknown as Db;
  });
  afterAll(async () => close?.());

  it('follows a table as it grows, before any ANALYZE, and never waits once it has sizes', async () => {
    const estimates = new RowEstimates(db, 1000);
    const empty = await estimates.current(0);
    await client.exec(`INSERT INTO events SELECT g, repeat('x', 100) FROM generate_series(1, 50000) g`);
    // Fresh sizes are kept until they are older than maxAgeMs.
    expect(await estimates.current(500)).toBe(empty);
    // Stale: priced with the last sizes while new ones are read.
    expect(await estimates.current(2000)).toBe(empty);
    let grown = empty;
    for (let i = 0; i < 500 && grown === empty; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      grown = await estimates.current(2100);
    }
    expect(grown.events).toBeGreaterThan(25_000);
    expect(grown.events).toBeGreaterThan(empty.events);
  });
});
