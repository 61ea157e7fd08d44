import { sql } from 'drizzle-orm';
import pg from 'pg';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlAuthCases } from '../test-support/auth-cases.js';
import { surfaceDrivers, testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestResponse, type TestVigil } from '../test-support/harness.js';
import { deviceFixtures, seedDevices } from '../test-support/registry-fixtures.js';
import { graphql, supervisorAccounts, supervisorRequest, type TestAccount } from '../test-support/supervisors.js';
import { fullIntrospectionQuery } from './limits.js';

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/** A refusal before anything ran: a 4xx, no data, a code from the catalogue and a message naming the limit. */
function expectRefused(res: TestResponse, code: string, message: RegExp, status = 400): void {
  expect(res.status).toBe(status);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors[0].extensions).toMatchObject({ code, status });
  expect(res.body.errors[0].message).toMatch(message);
}

/** A field error from a resolver: never an internal error, and the field is null. */
function expectFieldError(res: TestResponse, code: string, status: number): void {
  expect(res.status).toBeLessThan(500);
  expect(res.body.errors?.[0]?.extensions).toMatchObject({ code, status });
}

describe.each(surfaceDrivers())('GraphQL limits on %s', (driver) => {
  let server: TestVigil;
  let viewer: TestAccount;
  const gql = (query: string, variables: Record<string, unknown> = {}, token = viewer.token) => graphql(server, token, query, variables);

  beforeAll(async () => {
    server = await startTestVigil(driver);
    viewer = (await supervisorAccounts(server)).viewer;
    await seedDevices(server, deviceFixtures(1000, 'lim'));
    for (let i = 0; i < 5; i++) await server.post('/events', { event: 'login', identity: `u${i}`, properties: { device_id: `lim-000${i}` } });
  });
  afterAll(async () => server?.close());

  it('refuses 150 and 1,000 aliases of events totalCount as a viewer, naming the limit and the excess', async () => {
    for (const n of [150, 1000]) {
      const res = await gql(aliases(n, 'events(first: 1) { totalCount }'));
      expectRefused(res, 'query_too_expensive', /the limit is 50,000 \(over by [\d,]+\)/);
      expect(res.body.errors[0].message).toMatch(/events\.totalCount/);
    }
  });

  it('refuses 150 aliases of riskSummary, devices totalCount and facets alike', async () => {
    for (const field of [
      'riskSummary(from: "2025-01-01T00:00:00Z", to: "2025-01-02T00:00:00Z") { buckets { eventCount } }',
      'devices(first: 1) { totalCount }',
      'facets { roles { value } }',
    ]) {
      expectRefused(await gql(aliases(150, field)), 'query_too_expensive', /the limit is 50,000 \(over by/);
    }
  });

  it('answers a few counts in one query, as the console asks them', async () => {
    const res = await gql('{ e: events(first: 1) { totalCount } d: devices(first: 5) { totalCount nodes { id } } f: facets { roles { value } } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.e.totalCount).toBe(5);
    expect(res.body.data.d.totalCount).toBeGreaterThanOrEqual(1000);
    // A count is priced once, not once per item of the page.
    const page = await gql('{ devices(first: 500) { totalCount nodes { id } } }');
    expect(page.body.errors).toBeUndefined();
  });

  it('refuses 2,600 aliases of me (over 10,000 selected fields) with a 400, not a 500', async () => {
    const res = await gql(aliases(2600, 'me { id username role }'));
    expect(res.status).toBe(400);
    expect(['validation_failed', 'query_too_expensive']).toContain(res.body.errors[0].extensions.code);
    const fewer = await gql(aliases(600, 'me { id username role }'));
    expectRefused(fewer, 'query_too_expensive', /selects 2,400 fields.*the limit is 2,000 \(over by 400\)/);
  });

  it('answers the full standard introspection query for any signed-in principal', async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    const res = await gql(query);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  // Every role, with an API token or a console session: GraphiQL, codegen and BI clients load the schema.
  graphqlAuthCases(() => server, { name: 'full introspection', query: fullIntrospectionQuery, permission: 'read' });

  it('refuses introspection deeper than the standard query or in cycles', async () => {
    const deeper = `{ __schema { types { fields { type { ${'ofType { '.repeat(12)}name${' }'.repeat(12)} } } } } }`;
    expectRefused(await gql(deeper), 'query_too_expensive', /Introspection is nested \d+ levels deep; the limit is \d+/);
    const cycle = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    expectRefused(await gql(cycle), 'query_too_expensive', /same list twice.*types\.fields\.type\.fields/);
  });

  it('refuses a NUL or a lone surrogate in any text argument, variable or literal, before anything runs', async () => {
    const nul = 'a\u0000b';
    const device = await gql('query ($id: ID!) { device(id: $id) { id } }', { id: nul });
    expectRefused(device, 'validation_failed', /\$id: must not contain NUL/);
    expect(device.body.errors[0].extensions.errors).toEqual([{ path: '$id', message: expect.stringMatching(/NUL/) }]);
    for (const key of ['role', 'branch', 'userId', 'tag']) {
      const res = await gql('query ($f: DeviceFilter) { devices(filter: $f) { totalCount nodes { id } } }', { f: { [key]: nul } });
      expectRefused(res, 'validation_failed', /NUL/);
      expect(res.body.errors[0].extensions.errors[0].path).toBe(`$f.${key}`);
    }
    for (const key of ['deviceId', 'identity', 'event', 'tag']) {
      const res = await gql(`{ events(filter: { ${key}: "x\\u0000" }) { totalCount } }`);
      expectRefused(res, 'validation_failed', /NUL/);
      expect(res.body.errors[0].extensions.errors[0].path).toBe(`filter.${key}`);
    }
    // In a literal the GraphQL parser already refuses a lone surrogate; in a variable it is ours to refuse.
    const surrogate = await gql('query ($id: ID!) { device(id: $id) { id } }', { id: 'x\ud800' });
    expectRefused(surrogate, 'validation_failed', /\$id: must be well-formed Unicode/);
  });

  it('refuses such text in the admin operations too (usernames, ids, names), never an internal error', async () => {
    const { admin } = await supervisorAccounts(server);
    const operations = [
      ['disableSupervisor(username: $s) { username }', 'String!'],
      ['resetSupervisorPassword(username: $s) { password }', 'String!'],
      ['revokeToken(id: $s) { id }', 'ID!'],
      ['createKey(kind: WRITE, name: $s) { secret }', 'String!'],
      ['removeBehavior(name: $s)', 'String!'],
    ];
    for (const [field, type] of operations) {
      const res = await gql(`mutation ($s: ${type}) { ${field} }`, { s: 'a\u0000' }, admin.token);
      expectRefused(res, 'validation_failed', /NUL/);
    }
  });

  it('answers every event posted while a heavy but allowed reporting query runs', async () => {
    const heavy = aliases(30, 'devices(first: 100) { totalCount nodes { id registration { userId } currentTags } }');
    const report = gql(heavy);
    const posts = Array.from({ length: 40 }, (_, i) =>
      server.post('/events', { event: 'login', identity: `flow-${i}`, properties: { device_id: `lim-01${i}` } }),
    );
    const health = server.get('/healthz', { key: null });
    const answers = await Promise.all(posts);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect((await health).status).toBe(200);
    const res = await report;
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a29.nodes).toHaveLength(100);
  });
});

describe.each(testDrivers())('GraphQL reporting bounds on %s', (driver) => {
  let server: TestVigil;
  let viewer: TestAccount;
  const gql = (query: string, variables: Record<string, unknown> = {}) => graphql(server, viewer.token, query, variables);

  beforeAll(async () => {
    server = await startTestVigil(driver, {
      VIGIL_GRAPHQL_MAX_CONCURRENT: '1',
      VIGIL_GRAPHQL_EXPENSIVE_COST: '1',
      VIGIL_REPORTING_MAX_SCAN_ROWS: '300',
      VIGIL_REPORTING_STATEMENT_TIMEOUT_MS: '1000',
      VIGIL_GRAPHQL_INTROSPECTION: 'false',
    });
    viewer = (await supervisorAccounts(server)).viewer;
    await seedDevices(server, deviceFixtures(400, 'bnd'));
  });
  afterAll(async () => server?.close());

  it('refuses a second expensive query of the same principal while one runs: 429 with Retry-After', async () => {
    // Each alias asks for different page sizes, so each is its own statement: the query runs long enough to overlap.
    const fields = Array.from(
      { length: 20 },
      (_, i) => `a${i}: device(id: "bnd-000${i % 10}") { id history(first: ${i + 1}) { action } recentEvents(first: ${i + 1}) { name } }`,
    );
    const query = `{ ${fields.join(' ')} }`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => gql(query)));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const res of limited) {
      expect(res.headers.get('retry-after')).toBe('1');
      expectRefused(res, 'rate_limited', /the limit is 1 \(VIGIL_GRAPHQL_MAX_CONCURRENT\)/, 429);
    }
    for (const res of answers.filter((a) => a.status !== 429)) expect(res.body.errors).toBeUndefined();
    // Places are given back: the next one runs.
    expect((await gql(query)).status).toBe(200);
  });

  it('turns introspection off with VIGIL_GRAPHQL_INTROSPECTION=false', async () => {
    const res = await gql('{ __schema { queryType { name } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('validation_failed');
    expect(res.body.errors[0].message).toMatch(/introspection/i);
  });

  if (driver === 'postgres') {
    it('cancels a reporting statement at the statement timeout with query_too_expensive, on GraphQL and /api', async () => {
      // Another session holds the tables, so the reads wait until their statement_timeout cancels them.
      const result = (await server.database.db.execute(sql`SELECT current_database() AS name`)) as unknown as { rows: [{ name: string }] };
      const { name } = result.rows[0];
      const url = new URL(process.env.VIGIL_TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const lock = new pg.Client({ connectionString: url.toString() });
      await lock.connect();
      try {
        await lock.query('BEGIN');
        await lock.query('LOCK TABLE registrations, devices IN ACCESS EXCLUSIVE MODE');
        const res = await gql('{ devices(first: 1) { nodes { id } } }');
        expectFieldError(res, 'query_too_expensive', 400);
        expect(res.body.errors[0].message).toMatch(/longer than 1,000 ms \(VIGIL_REPORTING_STATEMENT_TIMEOUT_MS\)/);
        const rest = await supervisorRequest(server, 'GET', '/api/devices?limit=1', viewer.token);
        expect(rest.status).toBe(400);
        expect(rest.body).toMatchObject({ code: 'query_too_expensive', status: 400 });
      } finally {
        await lock.query('ROLLBACK').catch(() => {});
        await lock.end();
      }
    });
  } else {
    it('refuses up front a read the embedded database could not stop, naming VIGIL_REPORTING_MAX_SCAN_ROWS', async () => {
      const res = await gql('{ devices(first: 1) { totalCount } }');
      expectRefused(res, 'query_too_expensive', /devices may read about [\d,]+ rows.*at most 300 \(VIGIL_REPORTING_MAX_SCAN_ROWS, over by/);
    });

    it('refuses deviceStats up front the same way', async () => {
      expectRefused(await gql('{ deviceStats(groupBy: [STATUS]) { count } }'), 'query_too_expensive', /deviceStats may read about [\d,]+ rows.*at most 300/);
    });
  }
});
