import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { writeConfig } from './test-config.js';

const behaviors = [
  { name: 'tx_count_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['transfer'] },
  { name: 'tx_sum_1h', group_by: 'identity', operation: 'sum', field: 'properties.amount', window_duration_seconds: 3600, filters: ['transfer'] },
  { name: 'ips_10m', group_by: 'device_id', operation: 'unique', field: 'ip_address', window_duration_seconds: 600, return_values: true },
];

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

describe.each(testDrivers())('behaviors over HTTP on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors }) });
  });
  afterAll(async () => server?.close());

  const send = async (body: unknown, headers?: Record<string, string>) => {
    const res = await server.post('/events', body, { headers });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('counts, sums and uniques move with each event, in the documented Behavior shape', async () => {
    const u = `${driver}-alice`;
    const first = await send({ event: 'transfer', identity: u, properties: { amount: 100, device_id: 'd1', ip_address: '203.0.113.1' } });
    expect(first.behaviors).toEqual({
      tx_count_1h: { count: 1, sum: null, unique: null, values: null },
      tx_sum_1h: { count: null, sum: 100, unique: null, values: null },
      ips_10m: { count: null, sum: null, unique: 1, values: ['203.0.113.1'] },
    });
    const second = await send({ event: 'transfer', identity: u, properties: { amount: 23.5, device_id: 'd1', ip_address: '203.0.113.2' } });
    expect(second.behaviors.tx_count_1h.count).toBe(2);
    expect(second.behaviors.tx_sum_1h.sum).toBe(123.5);
    expect(second.behaviors.ips_10m).toMatchObject({ unique: 2, values: ['203.0.113.1', '203.0.113.2'] });
    // A login matches only the unfiltered behavior.
    const login = await send({ event: 'login', identity: u, properties: { device_id: 'd1', ip_address: '203.0.113.1' } });
    expect(Object.keys(login.behaviors)).toEqual(['ips_10m']);
    expect(login.behaviors.ips_10m.unique).toBe(2);
  });

  it('skips non-numeric amounts in sums but still counts the event', async () => {
    const u = `${driver}-bob`;
    await send({ event: 'transfer', identity: u, properties: { amount: 10 } });
    const res = await send({ event: 'transfer', identity: u, properties: { amount: 'lots' } });
    expect(res.behaviors.tx_count_1h.count).toBe(2);
    expect(res.behaviors.tx_sum_1h.sum).toBe(10);
  });

  it('expires events at exactly the window, on the events own timestamps', async () => {
    const u = `${driver}-carol`;
    const now = Date.now() - 1000;
    const at = (ms: number) => new Date(ms).toISOString();
    await send({ event: 'transfer', identity: u, properties: { amount: 1, timestamp: at(now - 3_600_000) } });
    await send({ event: 'transfer', identity: u, properties: { amount: 2, timestamp: at(now - 3_599_999) } });
    const res = await send({ event: 'transfer', identity: u, properties: { amount: 4, timestamp: at(now) } });
    expect(res.behaviors.tx_count_1h.count).toBe(2);
    expect(res.behaviors.tx_sum_1h.sum).toBe(6);
  });

  it('counts a late (offline) event at its own time', async () => {
    const u = `${driver}-dave`;
    await send({ event: 'transfer', identity: u, properties: { amount: 1, timestamp: ago(10) } });
    const late = await send({ event: 'transfer', identity: u, properties: { amount: 1, timestamp: ago(2 * 3600) } });
    expect(late.behaviors.tx_count_1h.count).toBe(1);
    const now = await send({ event: 'transfer', identity: u, properties: { amount: 1 } });
    expect(now.behaviors.tx_count_1h.count).toBe(2);
  });

  it('counts an idempotent replay once', async () => {
    const u = `${driver}-erin`;
    const body = { event: 'transfer', identity: u, properties: { amount: 5, event_id: `${driver}-replay-1` } };
    const a = await send(body);
    const b = await send(body);
    expect(b).toEqual(a);
    const c = await send({ event: 'transfer', identity: u, properties: { amount: 5 } });
    expect(c.behaviors.tx_count_1h.count).toBe(2);
  });

  it('omits a behavior whose group key is missing from the event', async () => {
    const res = await send({ event: 'transfer', properties: { amount: 5 } });
    expect(res.behaviors.tx_count_1h).toBeUndefined();
  });
});

// Two Vigil instances (separate pools, like two processes) on one PostgreSQL.
if (testDrivers().includes('postgres')) {
  describe('behaviors across two Vigil instances on one PostgreSQL', () => {
    let db: TestDatabase;
    let a: TestVigil;
    let b: TestVigil;
    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      const env = { VIGIL_CONFIG: writeConfig({ behaviors }) };
      a = await startTestVigil('postgres', env, db);
      b = await startTestVigil('postgres', env, db);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await db?.drop();
    });

    it('answers alternating events exactly as one instance would', async () => {
      const counts: number[] = [];
      for (let i = 0; i < 12; i++) {
        const server = i % 2 === 0 ? a : b;
        const res = await server.post('/events', {
          event: 'transfer',
          identity: 'shared',
          properties: { amount: i, device_id: 'dx', ip_address: `198.51.100.${i % 3}` },
        });
        expect(res.status).toBe(200);
        counts.push(res.body.behaviors.tx_count_1h.count);
        expect(res.body.behaviors.tx_sum_1h.sum).toBe((i * (i + 1)) / 2);
        expect(res.body.behaviors.ips_10m.unique).toBe(Math.min(3, i + 1));
      }
      expect(counts).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    });

    it('loses no count under concurrent events on both, and every answer is distinct', async () => {
      // One event time for all, so each event's window holds exactly the events committed before it.
      const timestamp = ago(1);
      const sends = Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).post('/events', { event: 'transfer', identity: 'burst', properties: { amount: 1, timestamp } }),
      );
      const answers = (await Promise.all(sends)).map((r) => r.body.behaviors.tx_count_1h.count as number);
      // Per-group locks serialise the two processes: each event sees all earlier ones, so 1..40 each once.
      expect([...answers].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      const after = await b.post('/events', { event: 'transfer', identity: 'burst', properties: { amount: 1 } });
      expect(after.body.behaviors.tx_sum_1h.sum).toBe(41);
    });
  });
}
