import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { BehaviorDefinitions } from './definitions.js';
import type { BehaviorsStage } from './stage.js';

// The admin service API (for the GraphQL admin to expose): define, list, remove, picked up by running servers.
describe.each(testDrivers())('behavior admin service on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  const stage = () => server.vigil.ingestor['options'].risk.stages.find((s) => s.name === 'behaviors') as BehaviorsStage;
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(ok()).toBe(true);
  };

  it('defines a behavior that a running server backfills and then counts, and removes it', async () => {
    for (let i = 0; i < 3; i++) await server.post('/events', { event: 'login', identity: `${driver}-svc` });
    const service = new BehaviorDefinitions(server.database.db);
    await expect(service.define({ name: 'bad', group_by: 'nowhere', operation: 'count', window_duration_seconds: 60 })).rejects.toThrow();
    const defined = await service.define({ name: 'logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600 });
    expect(defined).toMatchObject({ name: 'logins_1h', source: 'admin', status: 'backfilling' });
    await until(() => stage().behaviors.some((b) => b.compiled.name === 'logins_1h' && b.status === 'ready'));
    const res = await server.post('/events', { event: 'login', identity: `${driver}-svc` });
    expect(res.body.behaviors.logins_1h.count).toBe(4);
    expect((await service.list()).map((b) => b.name)).toEqual(['logins_1h']);

    expect(await service.remove('logins_1h')).toBe(true);
    expect(await service.remove('logins_1h')).toBe(false);
    await until(() => stage().behaviors.length === 0);
    expect((await server.post('/events', { event: 'login', identity: `${driver}-svc` })).body.behaviors).toEqual({});
  });
});
