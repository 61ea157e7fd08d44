import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlAuthCases } from '../test-support/auth-cases.js';
import { surfaceDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { deviceFixtures, seedDevices } from '../test-support/registry-fixtures.js';
import { graphql, supervisorAccounts, type TestAccount } from '../test-support/supervisors.js';

const N = 1000;
const fixtures = deviceFixtures(N, 'gq');
let serial = 0;

describe.each(surfaceDrivers())('GraphQL over HTTP on %s', (driver) => {
  let server: TestVigil;
  let accounts: Record<'admin' | 'supervisor' | 'viewer', TestAccount>;
  let spareKeyId: string;
  let spareTokenId: string;

  beforeAll(async () => {
    server = await startTestVigil(driver);
    accounts = await supervisorAccounts(server);
    await seedDevices(server, fixtures);
    const reg = (id: string, user: string, metadata: Record<string, unknown>) =>
      server.post(`/devices/${id}/register`, { user_id: user, metadata }, { key: server.clientKey });
    await reg('g-flow', 'ana', { role: 'teller', branch: 'harbour' });
    await reg('g-matrix', 'matrix', { role: 'agent' });
    for (const [i, identity] of ['ana', 'ana', 'bea'].entries()) {
      await server.post('/events', { event: i === 2 ? 'transfer' : 'login', identity, properties: { device_id: 'g-flow', amount: 10 * (i + 1) } });
    }
    spareKeyId = (await server.vigil.keys.create('write', 'to revoke via graphql')).id;
    const store = (await import('../auth/supervisor-store.js')).SupervisorStore;
    spareTokenId = (await new store(server.database).createToken(accounts.viewer.id, 'spare')).id;
  });
  afterAll(async () => server?.close());

  const gql = (query: string, variables: Record<string, unknown> = {}, token = accounts.supervisor.token) => graphql(server, token, query, variables);

  // The authorization matrix, for every query and mutation.
  const read = [
    ['query devices', '{ devices(first: 2) { totalCount nodes { id } } }'],
    ['query device', '{ device(id: "g-flow") { id registration { userId } history { action } recentEvents { name } } }'],
    ['query events', '{ events(first: 2) { totalCount nodes { id } } }'],
    ['query riskSummary', '{ riskSummary(from: "2025-01-01T00:00:00Z", to: "2025-01-02T00:00:00Z", bucket: HOUR) { buckets { eventCount } } }'],
    ['query facets', '{ facets { roles { value count } } }'],
    ['query me', '{ me { username role } }'],
  ] as const;
  for (const [name, query] of read) graphqlAuthCases(() => server, { name, query, permission: 'read' });
  const manage = [
    ['mutation deactivateDevice', 'mutation { deactivateDevice(deviceId: "g-matrix", reason: "matrix") { status } }'],
    ['mutation transferDevice', 'mutation { transferDevice(deviceId: "g-matrix", newUserId: "matrix-2", by: "m") { id } }'],
    ['mutation reactivateDevice', 'mutation { reactivateDevice(deviceId: "g-matrix", reason: "matrix") { status } }'],
  ] as const;
  for (const [name, query] of manage) graphqlAuthCases(() => server, { name, query, permission: 'manage_devices' });
  graphqlAuthCases(() => server, { name: 'query keys', query: '{ keys { id } }', permission: 'admin' });
  graphqlAuthCases(() => server, { name: 'mutation createKey', query: 'mutation { createKey(kind: CLIENT, name: "m") { secret } }', permission: 'admin' });
  graphqlAuthCases(() => server, {
    name: 'mutation revokeKey',
    query: 'mutation ($id: ID!) { revokeKey(id: $id) { id } }',
    variables: () => ({ id: spareKeyId }),
    permission: 'admin',
  });
  graphqlAuthCases(() => server, { name: 'query supervisors', query: '{ supervisors { username } }', permission: 'admin' });
  graphqlAuthCases(() => server, {
    name: 'mutation createSupervisor',
    query: 'mutation ($u: String!) { createSupervisor(username: $u, role: VIEWER) { password } }',
    variables: () => ({ u: `matrix-${process.pid}-${++serial}` }),
    permission: 'admin',
  });
  graphqlAuthCases(() => server, { name: 'query tokens', query: '{ tokens { id } }', permission: 'admin' });
  graphqlAuthCases(() => server, {
    name: 'mutation createToken',
    query: 'mutation ($u: String!) { createToken(username: $u) { token } }',
    variables: () => ({ u: accounts.viewer.username }),
    permission: 'admin',
  });
  graphqlAuthCases(() => server, {
    name: 'mutation revokeToken',
    query: 'mutation ($id: ID!) { revokeToken(id: $id) { id } }',
    variables: () => ({ id: spareTokenId }),
    permission: 'admin',
  });

  it('pages a Relay connection over 1,000 devices with filters and totalCount', async () => {
    const query = `query ($filter: DeviceFilter, $after: String) {
      devices(filter: $filter, first: 61, after: $after) {
        totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id registration { role branch } } }
      }
    }`;
    const filter = { role: 'agent', status: 'ACTIVE' };
    const expected = fixtures.filter((f) => f.role === 'agent' && f.status === 'active').map((f) => f.deviceId);
    const ids: string[] = [];
    let after: string | null = null;
    let first = true;
    do {
      const res = await gql(query, { filter, after });
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.devices;
      expect(page.totalCount).toBe(expected.length + 1); // + g-matrix or not, see below
      expect(page.pageInfo.hasPreviousPage).toBe(!first);
      for (const e of page.edges) expect(e.node.registration.role).toBe('agent');
      ids.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      first = false;
    } while (after);
    expect(ids.filter((id) => id.startsWith('gq-'))).toEqual(expected);
  });

  it('filters by branch, user, status and tag, and sorts by last seen', async () => {
    const byBranch = await gql('{ devices(filter: {branch: "south"}, first: 500) { totalCount nodes { id } } }');
    expect(byBranch.body.data.devices.totalCount).toBe(fixtures.filter((f) => f.branch === 'south').length);
    const byUser = await gql('{ devices(filter: {userId: "user-7"}, first: 500) { nodes { id } } }');
    expect(byUser.body.data.devices.nodes.map((n: { id: string }) => n.id)).toEqual(fixtures.filter((f) => f.userId === 'user-7').map((f) => f.deviceId));
    const tagged = await gql('{ devices(filter: {tag: "multi_user"}) { nodes { id currentTags } } }');
    expect(tagged.body.data.devices.nodes).toEqual([{ id: 'g-flow', currentTags: expect.arrayContaining(['multi_user']) }]);
    const sorted = await gql('{ devices(filter: {role: "field"}, sort: LAST_SEEN_DESC, first: 5) { nodes { id lastSeen } } }');
    const expected = fixtures
      .filter((f) => f.role === 'field')
      .sort((a, b) => (b.lastSeen?.getTime() ?? 0) - (a.lastSeen?.getTime() ?? 0) || (a.deviceId < b.deviceId ? -1 : 1))
      .slice(0, 5)
      .map((f) => f.deviceId);
    expect(sorted.body.data.devices.nodes.map((n: { id: string }) => n.id)).toEqual(expected);
  });

  it('answers device(id) with registration, history and recent events; null when unknown', async () => {
    const res = await gql(`{
      device(id: "g-flow") {
        id status handprintId currentTags
        registration { userId role branch metadata status registeredAt }
        history { action toUser actor { kind name } at }
        recentEvents(first: 2) { name identity tags riskScore properties occurredAt }
      }
      unknown: device(id: "nope") { id }
    }`);
    expect(res.body.errors).toBeUndefined();
    const d = res.body.data.device;
    expect(d).toMatchObject({
      id: 'g-flow',
      status: 'ACTIVE',
      registration: { userId: 'ana', role: 'teller', branch: 'harbour', metadata: { role: 'teller', branch: 'harbour' }, status: 'ACTIVE' },
      history: [{ action: 'REGISTER', toUser: 'ana', actor: { kind: 'client_key', name: 'test client' } }],
    });
    expect(d.recentEvents).toHaveLength(2);
    expect(d.recentEvents[0]).toMatchObject({ name: 'transfer', identity: 'bea', properties: { device_id: 'g-flow', amount: 30 } });
    expect(d.recentEvents[0].tags).toContain('multi_user');
    expect(res.body.data.unknown).toBeNull();
  });

  it('deactivates, transfers and reactivates, each step in the history, errors carrying the REST codes', async () => {
    const move = (m: string) => gql(`mutation { ${m} { id status registration { userId deactivationReason } } }`);
    const off = await move('deactivateDevice(deviceId: "g-flow", reason: "audit", by: "sup-x")');
    expect(off.body.data.deactivateDevice).toMatchObject({ status: 'DEACTIVATED', registration: { deactivationReason: 'audit' } });
    const moved = await move('transferDevice(deviceId: "g-flow", newUserId: "bea")');
    expect(moved.body.data.transferDevice.registration.userId).toBe('bea');
    const on = await move('reactivateDevice(deviceId: "g-flow", reason: "cleared")');
    expect(on.body.data.reactivateDevice.status).toBe('ACTIVE');
    const history = await gql('{ device(id: "g-flow") { history { action fromUser toUser by reason actor { kind name } } } }');
    expect(history.body.data.device.history.slice(0, 3)).toEqual([
      {
        action: 'REACTIVATE',
        fromUser: 'bea',
        toUser: 'bea',
        by: accounts.supervisor.username,
        reason: 'cleared',
        actor: { kind: 'supervisor', name: accounts.supervisor.username },
      },
      {
        action: 'TRANSFER',
        fromUser: 'ana',
        toUser: 'bea',
        by: accounts.supervisor.username,
        reason: null,
        actor: { kind: 'supervisor', name: accounts.supervisor.username },
      },
      { action: 'DEACTIVATE', fromUser: 'ana', toUser: 'ana', by: 'sup-x', reason: 'audit', actor: { kind: 'supervisor', name: accounts.supervisor.username } },
    ]);

    await server.post('/events', { event: 'login', properties: { device_id: 'g-unreg' } });
    const codes = async (m: string) => (await gql(`mutation { ${m} { id } }`)).body.errors?.[0]?.extensions;
    expect(await codes('reactivateDevice(deviceId: "g-unreg", reason: "x")')).toMatchObject({
      code: 'device_not_registered',
      type: '/problems/device_not_registered',
      status: 409,
    });
    expect(await codes('transferDevice(deviceId: "ghost", newUserId: "x")')).toMatchObject({ code: 'not_found', status: 404 });
    expect(await codes('deactivateDevice(deviceId: "g-flow", reason: "")')).toMatchObject({ code: 'validation_failed', status: 400 });
    const viewer = await gql('mutation { deactivateDevice(deviceId: "g-flow", reason: "x") { id } }', {}, accounts.viewer.token);
    expect(viewer.body.errors[0].extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect(viewer.body.data).toBeNull();
  });

  it('lists events with filters and paging, and summarises risk by bucket', async () => {
    const all = await gql('{ events(filter: {deviceId: "g-flow"}, first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { name identity } } }');
    const page = all.body.data.events;
    expect(page.totalCount).toBe(3);
    expect(page.nodes.map((n: { name: string }) => n.name)).toEqual(['transfer', 'login']);
    const next = await gql(
      'query ($after: String) { events(filter: {deviceId: "g-flow"}, first: 2, after: $after) { pageInfo { hasNextPage } nodes { identity } } }',
      {
        after: page.pageInfo.endCursor,
      },
    );
    expect(next.body.data.events).toEqual({ pageInfo: { hasNextPage: false }, nodes: [{ identity: 'ana' }] });
    const tagged = await gql('{ events(filter: {tag: "multi_user", identity: "bea", event: "transfer", minScore: 0.1}) { totalCount } }');
    expect(tagged.body.data.events.totalCount).toBe(1);

    const from = new Date(Date.now() - 2 * 3600_000);
    const to = new Date(Date.now() + 3600_000);
    const summary = await gql(
      'query ($from: DateTimeISO!, $to: DateTimeISO!) { riskSummary(from: $from, to: $to, bucket: HOUR) { bucket buckets { start eventCount meanScore tagCounts { tag count } } } }',
      {
        from: from.toISOString(),
        to: to.toISOString(),
      },
    );
    expect(summary.body.errors).toBeUndefined();
    const buckets = summary.body.data.riskSummary.buckets;
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    const total = buckets.reduce((n: number, b: { eventCount: number }) => n + b.eventCount, 0);
    expect(total).toBeGreaterThanOrEqual(4);
    const busy = buckets.find((b: { eventCount: number }) => b.eventCount > 0);
    expect(busy.meanScore).toBeGreaterThan(0);
    expect(busy.tagCounts.map((t: { tag: string }) => t.tag)).toContain('new_device');
    expect(buckets.find((b: { eventCount: number }) => b.eventCount === 0)?.meanScore ?? null).toBeNull();
    const bad = await gql('{ riskSummary(from: "2020-01-01T00:00:00Z", to: "2025-01-01T00:00:00Z", bucket: HOUR) { bucket } }');
    expect(bad.body.errors[0].extensions.code).toBe('validation_failed');
  });

  it('lists facets: roles, branches, statuses and tags in use', async () => {
    const res = await gql('{ facets { roles { value count } branches { value count } statuses { value count } tags { value count } } }');
    const f = res.body.data.facets;
    expect(f.roles.map((r: { value: string }) => r.value).sort()).toEqual(['agent', 'field', 'manager', 'teller']);
    expect(f.branches.find((b: { value: string }) => b.value === 'south').count).toBe(fixtures.filter((x) => x.branch === 'south').length);
    expect(f.branches.map((b: { value: string }) => b.value)).toContain('harbour');
    expect(f.statuses.map((s: { value: string }) => s.value).sort()).toEqual(['active', 'deactivated', 'unregistered']);
    expect(f.tags.map((t: { value: string }) => t.value)).toContain('multi_user');
  });

  it('manages keys, supervisors and tokens as admin; secrets are shown once and work', async () => {
    const admin = accounts.admin.token;
    const key = await gql('mutation { createKey(kind: WRITE, name: "ci") { secret key { id kind name displayPrefix } } }', {}, admin);
    const { secret, key: created } = key.body.data.createKey;
    expect(created).toMatchObject({ kind: 'WRITE', name: 'ci', displayPrefix: secret.slice(0, 13) });
    expect((await server.post('/events', { event: 'login' }, { key: secret })).status).toBe(200);
    const listed = await gql('{ keys { id revokedAt } }', {}, admin);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    await gql('mutation ($id: ID!) { revokeKey(id: $id) { revokedAt } }', { id: created.id }, admin);
    expect((await server.post('/events', { event: 'login' }, { key: secret })).status).toBe(401);

    const sup = await gql('mutation { createSupervisor(username: "gina", role: SUPERVISOR) { supervisor { username role } password } }', {}, admin);
    expect(sup.body.data.createSupervisor).toMatchObject({ supervisor: { username: 'gina', role: 'SUPERVISOR' }, password: expect.any(String) });
    const dup = await gql('mutation { createSupervisor(username: "gina", role: VIEWER) { password } }', {}, admin);
    expect(dup.body.errors[0].extensions.code).toBe('conflict');
    const token = await gql('mutation { createToken(username: "gina", name: "laptop") { id token } }', {}, admin);
    const gina = token.body.data.createToken;
    expect((await gql('{ me { username role } }', {}, gina.token)).body.data.me).toEqual({ username: 'gina', role: 'SUPERVISOR' });
    await gql('mutation ($id: ID!) { revokeToken(id: $id) { revokedAt } }', { id: gina.id }, admin);
    expect((await gql('{ me { username } }', {}, gina.token)).status).toBe(401);
    const missing = await gql('mutation { revokeToken(id: "tok_nope") { id } }', {}, admin);
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
  });

  it('refuses queries that are too deep or too costly with query_too_expensive, and invalid GraphQL with validation_failed', async () => {
    const deep = await gql(`{ devices { nodes { id } } __schema { types { fields { type { ${'ofType { '.repeat(14)}name${' }'.repeat(14)} } } } } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].extensions.code).toBe('query_too_expensive');
    expect(deep.body.errors[0].message).toMatch(/deep/);
    const costly = await gql('{ devices(first: 500) { nodes { recentEvents(first: 100) { id name tags } history(first: 100) { id } } } }');
    expect(costly.status).toBe(400);
    expect(costly.body.errors[0].extensions.code).toBe('query_too_expensive');
    expect(costly.body.errors[0].message).toMatch(/costs/);
    const invalid = await gql('{ devices { nope } }');
    expect(invalid.body.errors[0].extensions.code).toBe('validation_failed');
    const tooMany = await gql('{ devices(first: 501) { totalCount } }');
    expect(tooMany.body.errors[0].extensions.code).toBe('validation_failed');
    const badCursor = await gql('{ devices(after: "garbage") { totalCount } }');
    expect(badCursor.body.errors[0].extensions.code).toBe('validation_failed');
  });

  it('batches with DataLoader: a page of 100 devices costs as many queries as a page of 10', async () => {
    // Reads run on the reporting connections (PGlite: a view of its one client that queues them).
    const client = (server.database.reporting as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
    const original = client.query;
    let queries = 0;
    client.query = function (this: unknown, ...args: unknown[]) {
      // Not the cost model's table sizes (RowEstimates): read in the background once per 10 s, whichever request
      // finds them stale, so on a slow machine they fell inside one measurement and not the other.
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (!text?.startsWith('EXPLAIN')) queries++;
      return original.apply(this, args);
    };
    const query = `query ($n: Int!) { devices(first: $n, filter: {status: ACTIVE}) {
      totalCount nodes { id status registration { userId role branch } currentTags history(first: 5) { action } recentEvents(first: 3) { name } }
    } }`;
    const cost = async (n: number) => {
      queries = 0;
      const res = await gql(query, { n });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.devices.nodes).toHaveLength(n);
      return queries;
    };
    try {
      await cost(10); // warm: the credential's last_used_at write happens at most once a minute
      const ten = await cost(10);
      const hundred = await cost(100);
      expect(hundred).toBe(ten);
      // Listing 1, count 1, tags 1, history 1, recent events 1 (registration comes with the listing).
      expect(hundred).toBeLessThanOrEqual(5);
    } finally {
      client.query = original;
    }
  });
});
