import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil } from '../test-support/harness.js';

beforeAll(() => assertBuilt());

const IDENTITY = 'zed@example.com';

describe.each(testDrivers())('vigil identity export and erase on %s', (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
    const server = await startTestVigil(driver, {}, db);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await server.post('/events', { event: 'login', identity: IDENTITY, properties: { device_id: 'dev-zed', phone: '+33612345678' } });
        expect(res.status, res.text).toBe(200);
      }
    } finally {
      await server.close();
    }
  });
  afterAll(async () => db?.drop());

  it('exports the identity as one JSON document on stdout, erases it, and an export afterwards finds nothing', async () => {
    const exported = await runCli(['identity', 'export', IDENTITY], db.env);
    expect(exported.code, exported.stderr).toBe(0);
    const record = JSON.parse(exported.stdout);
    expect(record.events).toHaveLength(3);
    expect(record.contact_sightings.phones).toEqual([expect.objectContaining({ value: '+33612345678', linked: [IDENTITY] })]);
    expect(exported.stderr).toMatch(/exported 3 events \(request dsr_\w+\)/);

    const erased = await runCli(['identity', 'erase', IDENTITY, '--json'], db.env);
    expect(erased.code, erased.stderr).toBe(0);
    const report = JSON.parse(erased.stdout);
    expect(report).toMatchObject({ found: { emails: 1, phones: 1 }, changed: { events: 3 } });
    expect(report.pseudonym).toMatch(/^erased_[0-9a-f]{20}$/);
    expect(erased.stderr).toMatch(/^the identity's events \S+: 3 rewritten$/m);

    const after = JSON.parse((await runCli(['identity', 'export', IDENTITY], db.env)).stdout);
    expect(after.events).toEqual([]);
    expect(after.contact_sightings).toEqual({ emails: [], phones: [], ips: [] });
  });

  it('answers a missing identity with the usage', async () => {
    const res = await runCli(['identity', 'erase'], db.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Usage: vigil identity export IDENTITY');
  });
});
