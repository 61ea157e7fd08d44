import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchPglite } from '../test-support/databases.js';
import { oneAtATime } from './one-at-a-time.js';

describe('oneAtATime (PGlite reporting view)', () => {
  let client: PGlite;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, close } = await scratchPglite());
  });
  afterAll(async () => close?.());

  it('lets I/O and the client itself in between a burst of reporting statements', async () => {
    const view = oneAtATime(client);
    const order: string[] = [];
    const reports = Array.from({ length: 30 }, (_, i) => view.query('SELECT count(*) FROM generate_series(1, 2000)').then(() => order.push(`r${i}`)));
    // Stands for a request arriving meanwhile (an event, /healthz): a timer, then a statement of its own.
    const arrived = new Promise<void>((resolve) => setTimeout(() => void client.query('SELECT 1').then(() => (order.push('ingest'), resolve())), 0));
    await Promise.all([...reports, arrived]);
    expect(order.indexOf('ingest')).toBeLessThan(order.indexOf('r29'));
    expect(order.filter((o) => o.startsWith('r'))).toEqual(Array.from({ length: 30 }, (_, i) => `r${i}`));
  });

  it('keeps going after a failed statement', async () => {
    const view = oneAtATime(client);
    await expect(view.query('SELECT nope')).rejects.toThrow();
    expect((await view.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
  });
});
