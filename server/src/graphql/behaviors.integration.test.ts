import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../behaviors/test-config.js';
import { graphqlAuthCases } from '../test-support/auth-cases.js';
import { surfaceDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { graphql, supervisorAccounts, type TestAccount } from '../test-support/supervisors.js';

const fromConfig = { name: 'cfg_logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['login'] };

const DEFINE = `mutation ($input: BehaviorInput!) {
  defineBehavior(input: $input) { id name description groupBy operation field windowDurationSeconds returnValues source status
    filters { event field operator value } }
}`;
const LIST = '{ behaviors { name source status backfilledEvents groupBy operation field filters { event field operator value } } }';

describe.each(surfaceDrivers())('GraphQL behaviors on %s', (driver) => {
  let server: TestVigil;
  let accounts: Record<'admin' | 'supervisor' | 'viewer', TestAccount>;
  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors: [fromConfig] }) });
    accounts = await supervisorAccounts(server);
  });
  afterAll(async () => server?.close());

  const admin = (query: string, variables: Record<string, unknown> = {}) => graphql(server, accounts.admin.token, query, variables);
  const listed = async () => {
    const res = await graphql(server, accounts.viewer.token, LIST);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.behaviors as { name: string; status: string; source: string; backfilledEvents: number }[];
  };
  /** Admin definitions start counting a few seconds after they are stored, then backfill: poll the listing. */
  const untilReady = async (name: string) => {
    for (let i = 0; i < 300; i++) {
      if ((await listed()).find((b) => b.name === name)?.status === 'READY') return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`behavior ${name} never became READY`);
  };
  const send = async (body: Record<string, unknown>) => {
    const res = await server.post('/events', body);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  // Viewers and supervisors read; only admins define and remove. Repeating each is harmless (matrix re-sends).
  graphqlAuthCases(() => server, { name: 'query behaviors', query: '{ behaviors { name status } }', permission: 'read' });
  graphqlAuthCases(() => server, {
    name: 'mutation defineBehavior',
    query: 'mutation { defineBehavior(input: {name: "matrix_count", groupBy: "identity", operation: COUNT, windowDurationSeconds: 60}) { name } }',
    permission: 'admin',
  });
  graphqlAuthCases(() => server, { name: 'mutation removeBehavior', query: 'mutation { removeBehavior(name: "matrix_none") }', permission: 'admin' });

  it('lists the config file behaviors with their source and status', async () => {
    await untilReady('cfg_logins_1h');
    const found = (await listed()).find((b) => b.name === 'cfg_logins_1h');
    expect(found).toEqual({
      name: 'cfg_logins_1h',
      source: 'CONFIG',
      status: 'READY',
      backfilledEvents: 0,
      groupBy: 'identity',
      operation: 'COUNT',
      field: null,
      filters: [{ event: 'login', field: null, operator: null, value: null }],
    });
  });

  it('an admin defines a behavior that is backfilled from stored events, then answered on POST /events', async () => {
    const who = `${driver}-gq-bhv`;
    for (const amount of [5, 20, 30]) await send({ event: 'transfer', identity: who, properties: { amount } });
    await send({ event: 'login', identity: who, properties: { amount: 99 } });

    const input = {
      name: 'big_transfers_1h',
      description: 'transfers above 10 per identity',
      groupBy: 'identity',
      operation: 'SUM',
      field: 'properties.amount',
      windowDurationSeconds: 3600,
      filters: [{ event: 'transfer' }, { field: 'properties.amount', operator: 'GT', value: 10 }],
    };
    const res = await admin(DEFINE, { input });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.defineBehavior).toMatchObject({
      name: 'big_transfers_1h',
      description: 'transfers above 10 per identity',
      groupBy: 'identity',
      operation: 'SUM',
      field: 'properties.amount',
      windowDurationSeconds: 3600,
      returnValues: false,
      source: 'ADMIN',
      status: 'BACKFILLING',
      filters: [
        { event: 'transfer', field: null, operator: null, value: null },
        { event: null, field: 'properties.amount', operator: 'GT', value: 10 },
      ],
    });

    await untilReady('big_transfers_1h');
    const after = (await listed()).find((b) => b.name === 'big_transfers_1h')!;
    expect(after.backfilledEvents).toBeGreaterThanOrEqual(4);
    const answer = await send({ event: 'transfer', identity: who, properties: { amount: 50 } });
    expect(answer.behaviors.big_transfers_1h).toEqual({ count: null, sum: 100, unique: null, values: null });
    // Its own warning is gone; another definition (the auth matrix's `matrix_count`) may still be backfilling.
    expect(answer.warnings ?? []).not.toContainEqual(
      expect.objectContaining({ code: 'behavior_backfilling', message: expect.stringContaining('big_transfers_1h') }),
    );

    // Redefining with a changed description keeps the counts (same id); a unique with values also round-trips.
    const again = await admin(DEFINE, { input: { ...input, description: 'renamed' } });
    expect(again.body.data.defineBehavior).toMatchObject({ id: res.body.data.defineBehavior.id, description: 'renamed', status: 'READY' });
    const ips = await admin(DEFINE, {
      input: {
        name: 'ips_10m',
        groupBy: 'properties.account',
        operation: 'UNIQUE',
        field: 'ip_address',
        windowDurationSeconds: 600,
        returnValues: true,
        filters: [{ field: 'event', operator: 'IN', value: ['login', 'transfer'] }],
      },
    });
    expect(ips.body.data.defineBehavior).toMatchObject({
      returnValues: true,
      filters: [{ event: null, field: 'event', operator: 'IN', value: ['login', 'transfer'] }],
    });
  });

  it('refuses an invalid definition with validation_failed and the paths of the input fields', async () => {
    const errorsOf = async (input: Record<string, unknown>) => {
      const res = await admin(DEFINE, { input });
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
      const ext = res.body.errors[0].extensions;
      expect(ext).toMatchObject({ code: 'validation_failed', status: 400, type: '/problems/validation_failed' });
      return (ext.errors as { path: string }[]).map((e) => e.path).sort();
    };
    const base = { name: 'bad_one', groupBy: 'identity', operation: 'COUNT', windowDurationSeconds: 60 };
    expect(await errorsOf({ ...base, groupBy: 'nowhere', windowDurationSeconds: 0 })).toEqual(['input.groupBy', 'input.windowDurationSeconds']);
    expect(await errorsOf({ ...base, windowDurationSeconds: 90 * 86400 + 1, name: '1x' })).toEqual(['input.name', 'input.windowDurationSeconds']);
    expect(await errorsOf({ ...base, field: 'properties.amount', returnValues: true })).toEqual(['input.field', 'input.returnValues']);
    expect(await errorsOf({ ...base, operation: 'SUM' })).toEqual(['input.field']);
    expect(await errorsOf({ ...base, filters: [{ event: 'login' }, { field: 'properties.amount', operator: 'GT', value: 'ten' }] })).toEqual([
      'input.filters.1.value',
    ]);
    expect(await errorsOf({ ...base, filters: [{ field: 'properties.x', operator: 'IN', value: 'a' }] })).toEqual(['input.filters.0.value']);
    expect(await errorsOf({ ...base, filters: [{ field: 'nowhere', operator: 'EXISTS' }] })).toEqual(['input.filters.0.field']);
    expect(await errorsOf({ ...base, filters: [{ event: 'login', field: 'identity', operator: 'EXISTS' }] })).toEqual(['input.filters.0.event']);
    // Not valid GraphQL at all (an unknown enum value): the same code, from GraphQL's own validation.
    const enumRes = await admin('mutation { defineBehavior(input: {name: "x", groupBy: "identity", operation: AVERAGE, windowDurationSeconds: 60}) { name } }');
    expect(enumRes.body.errors[0].extensions.code).toBe('validation_failed');
    expect((await listed()).map((b) => b.name)).not.toContain('bad_one');
  });

  it('config-file behaviors cannot be removed or redefined through GraphQL (conflict)', async () => {
    const removed = await admin('mutation { removeBehavior(name: "cfg_logins_1h") }');
    expect(removed.body.errors[0].extensions).toMatchObject({ code: 'conflict', status: 409 });
    expect(removed.body.errors[0].message).toMatch(/VIGIL_CONFIG/);
    const redefined = await admin(DEFINE, { input: { name: 'cfg_logins_1h', groupBy: 'device_id', operation: 'COUNT', windowDurationSeconds: 60 } });
    expect(redefined.body.errors[0].extensions.code).toBe('conflict');
    expect((await listed()).find((b) => b.name === 'cfg_logins_1h')).toMatchObject({ source: 'CONFIG', groupBy: 'identity' });
  });

  it('an admin removes a behavior: it leaves the listing and event responses; removing it again answers false', async () => {
    const who = `${driver}-gq-rm`;
    await admin(DEFINE, { input: { name: 'to_remove', groupBy: 'identity', operation: 'COUNT', windowDurationSeconds: 60 } });
    await untilReady('to_remove');
    expect((await send({ event: 'login', identity: who })).behaviors.to_remove).toEqual({ count: 1, sum: null, unique: null, values: null });

    expect((await admin('mutation { removeBehavior(name: "to_remove") }')).body).toEqual({ data: { removeBehavior: true } });
    expect((await admin('mutation { removeBehavior(name: "to_remove") }')).body).toEqual({ data: { removeBehavior: false } });
    expect((await listed()).map((b) => b.name)).not.toContain('to_remove');
    // Running processes reload on NOTIFY (or the next poll); wait for this one to drop it.
    for (let i = 0; i < 100; i++) {
      if (!('to_remove' in (await send({ event: 'login', identity: who })).behaviors)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the removed behavior is still answered');
  });
});
