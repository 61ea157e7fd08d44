import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../behaviors/test-config.js';
import { listEvents } from '../reporting/events.js';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { graphql, supervisorAccounts, type TestAccount } from '../test-support/supervisors.js';

const behaviors = [{ name: 'logins_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['login'] }];
const NODE = 'id name identity deviceId occurredAt receivedAt riskScore';

describe.each(testDrivers())('events as a reporting source on %s', (driver) => {
  let server: TestVigil;
  let viewer: TestAccount;
  let supervisor: TestAccount;
  const gql = (query: string, variables: Record<string, unknown> = {}, token = viewer.token) => graphql(server, token, query, variables);
  const ids = async (filter: Record<string, unknown>) => {
    const res = await gql(`query ($f: EventFilter) { events(filter: $f, first: 500) { totalCount nodes { identity } } }`, { f: filter });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.events.totalCount).toBe(res.body.data.events.nodes.length);
    return (res.body.data.events.nodes as { identity: string }[]).map((n) => n.identity).sort();
  };
  const post = async (body: Record<string, unknown>) => {
    const res = await server.post('/events', body);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig({ behaviors }), VIGIL_REPORTING_SETTLE_MS: '0' });
    ({ viewer, supervisor } = await supervisorAccounts(server));
    await server.post('/devices/rep-a/register', { user_id: 'ana', metadata: { role: 'teller', branch: 'harbour' } }, { key: server.clientKey });
    await post({ event: 'login', identity: 'before-transfer', properties: { device_id: 'rep-a', email: 'Ana.Smith+x@gmail.com', phone: '+14155552671' } });
    const moved = await gql('mutation { transferDevice(deviceId: "rep-a", newUserId: "bob", by: "test") { id } }', {}, supervisor.token);
    expect(moved.body.errors).toBeUndefined();
    await post({ event: 'login', identity: 'after-transfer', properties: { device_id: 'rep-a', ip_address: 'not-an-ip' } });
    await post({ event: 'transfer', identity: 'unregistered', properties: { device_id: 'rep-u' } });
  });
  afterAll(async () => server?.close());

  it('filters by the registration the device had when the event was answered, not the one it has now', async () => {
    expect(await ids({ userId: 'ana' })).toEqual(['before-transfer']);
    expect(await ids({ userId: 'bob' })).toEqual(['after-transfer']);
    expect(await ids({ branch: 'harbour' })).toEqual(['after-transfer', 'before-transfer']);
    expect(await ids({ role: 'teller', userId: 'bob' })).toEqual(['after-transfer']);
    expect(await ids({ branch: 'elsewhere' })).toEqual([]);
  });

  it('filters by handprint, score range and either time', async () => {
    const [{ handprint_id: handprint }] = [
      await post({ event: 'probe', identity: 'timed', properties: { device_id: 'rep-t', timestamp: '2020-01-02T03:04:05Z' } }),
    ];
    expect(await ids({ handprintId: handprint, event: 'probe' })).toEqual(['timed']);
    const old = { from: '2020-01-01T00:00:00Z', to: '2020-01-03T00:00:00Z' };
    expect(await ids({ ...old, timeField: 'OCCURRED' })).toEqual(['timed']);
    expect(await ids(old)).toEqual(['timed']);
    expect(await ids({ ...old, timeField: 'RECEIVED' })).toEqual([]);
    const recent = { from: new Date(Date.now() - 3600_000).toISOString(), timeField: 'RECEIVED' };
    expect(await ids({ ...recent, event: 'probe' })).toEqual(['timed']);
    const all = await ids({});
    const scored = await gql('{ events(first: 500) { nodes { riskScore } } }');
    const scores = (scored.body.data.events.nodes as { riskScore: number }[]).map((n) => n.riskScore);
    const cut = Math.max(...scores);
    expect((await ids({ maxScore: cut })).length).toBe(all.length);
    expect((await ids({ minScore: cut, maxScore: cut })).length).toBe(scores.filter((s) => s === cut).length);
    expect((await ids({ maxScore: -1 })).length).toBe(0);
  });

  it('answers every insight the event was answered with, typed', async () => {
    const res = await gql(`{ events(filter: { deviceId: "rep-a" }, first: 5) { nodes { identity tags riskScore
      behaviors { name count sum unique values } scoreBreakdown { tag weight contribution }
      emailIntel { address valid normalized domain disposable freeProvider roleAccount firstSeen devicesSeen }
      phoneIntel { number valid e164 country lineType firstSeen identitiesSeen }
      warnings { code message } deviceIdAgeDays
      deviceState { isRegistered isTrusted registeredTo registeredAt role branch metadata ageDays isNew model osVersion status } } } }`);
    expect(res.body.errors).toBeUndefined();
    const [after, before] = res.body.data.events.nodes;
    expect(before.identity).toBe('before-transfer');
    expect(before.behaviors).toEqual([{ name: 'logins_1h', count: 1, sum: null, unique: null, values: null }]);
    expect(before.emailIntel).toMatchObject({
      address: 'Ana.Smith+x@gmail.com',
      valid: true,
      normalized: 'anasmith@gmail.com',
      freeProvider: true,
      disposable: false,
      devicesSeen: 1,
    });
    expect(before.phoneIntel).toMatchObject({ number: '+14155552671', valid: true, e164: '+14155552671', country: 'US' });
    expect(before.deviceState).toMatchObject({ isRegistered: true, registeredTo: 'ana', role: 'teller', branch: 'harbour', status: 'ACTIVE' });
    expect(before.deviceState.metadata).toMatchObject({ branch: 'harbour' });
    expect(before.warnings).toEqual([]);
    expect(after.deviceState.registeredTo).toBe('bob');
    expect(after.emailIntel).toBeNull();
    expect(after.warnings.map((w: { code: string }) => w.code).length).toBeGreaterThan(0);
    for (const node of [before, after]) {
      const sum = node.scoreBreakdown.reduce((a: number, b: { contribution: number }) => a + b.contribution, 0);
      expect(sum).toBeCloseTo(node.riskScore, 6);
      expect(node.scoreBreakdown.map((s: { tag: string }) => s.tag).sort()).toEqual([...node.tags].sort());
    }
  });

  it('pages in received order, so an offline event synced after a page was read is on the next page', async () => {
    const page = `query ($after: String, $f: EventFilter) { events(order: RECEIVED_ASC, first: 2, after: $after, filter: $f) {
      pageInfo { hasNextPage endCursor } edges { cursor node { ${NODE} } } } }`;
    const f = { event: 'sync' };
    for (const i of [1, 2, 3]) await post({ event: 'sync', identity: `s${i}` });
    const first = await gql(page, { f });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.events.edges.map((e: { node: { identity: string } }) => e.node.identity)).toEqual(['s1', 's2']);
    const second = await gql(page, { f, after: first.body.data.events.pageInfo.endCursor });
    expect(second.body.data.events.edges.map((e: { node: { identity: string } }) => e.node.identity)).toEqual(['s3']);
    expect(second.body.data.events.pageInfo.hasNextPage).toBe(false);
    // Happened a year ago, arrives now: newest-first listings put it far back; received order after s3.
    await post({ event: 'sync', identity: 'offline', properties: { timestamp: new Date(Date.now() - 365 * 86_400_000).toISOString() } });
    const resumed = await gql(page, { f, after: second.body.data.events.pageInfo.endCursor });
    expect(resumed.body.data.events.edges.map((e: { node: { identity: string } }) => e.node.identity)).toEqual(['offline']);
    // Stable: the same cursor gives the same page.
    const again = await gql(page, { f, after: first.body.data.events.pageInfo.endCursor });
    expect(again.body.data.events.edges.map((e: { node: { identity: string } }) => e.node.identity)).toEqual(['s3', 'offline']);
  });

  it('breaks ties of the same receipt time by id, never skipping or repeating one', async () => {
    const batch = await server.post('/events/batch', { events: Array.from({ length: 7 }, (_, i) => ({ event: 'tie', identity: `t${i}` })) });
    expect(batch.status).toBe(200);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof gql>> = await gql(
        'query ($after: String) { events(order: RECEIVED_ASC, first: 2, after: $after, filter: { event: "tie" }) { pageInfo { hasNextPage endCursor } nodes { id identity } } }',
        { after },
      );
      seen.push(...res.body.data.events.nodes.map((n: { identity: string }) => n.identity));
      after = res.body.data.events.pageInfo.hasNextPage ? res.body.data.events.pageInfo.endCursor : null;
    } while (after);
    expect(seen.sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
  });

  it('holds back events received within the settle time, so a cursor never passes one still being stored', async () => {
    await post({ event: 'settling', identity: 'fresh' });
    const held = await listEvents(server.database.reporting, { event: 'settling' }, 10, null, {
      order: 'received_asc',
      receivedBefore: new Date(Date.now() - 60_000),
    });
    expect(held.events).toEqual([]);
    const settled = await listEvents(server.database.reporting, { event: 'settling' }, 10, null, {
      order: 'received_asc',
      receivedBefore: new Date(Date.now() + 1),
    });
    expect(settled.events.map((e) => e.identity)).toEqual(['fresh']);
  });

  it('answers a time before the year 1 (which PostgreSQL cannot hold) as bad input, never an internal error', async () => {
    const res = await gql('{ events(filter: { from: "0000-06-01T00:00:00Z" }) { nodes { id } } }');
    expect(res.body.errors[0].extensions.code).not.toBe('internal_error');
    expect(res.body.errors[0].extensions.status).toBe(400);
  });

  it('refuses a cursor of the other order with a 400-coded error naming the argument', async () => {
    const newest = await gql('{ events(first: 1) { pageInfo { endCursor } } }');
    const res = await gql('query ($a: String) { events(order: RECEIVED_ASC, after: $a) { nodes { id } } }', { a: newest.body.data.events.pageInfo.endCursor });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(res.body.errors[0].message).toMatch(/after is not a received-order cursor/);
  });
});
