import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe, type ServeProcess } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';

beforeAll(() => assertBuilt());

/** Both sides printed alike: introspection keeps names, fields, arguments, descriptions, deprecations and scalars' URLs, not order. */
const canonical = (schema: ReturnType<typeof buildSchema>) => printSchema(lexicographicSortSchema(schema));

// The bundle is built without esbuild's keepNames, so a GraphQL type named after its class would take the name the
// bundle gives the class (`DeviceBinding2`: a decorated class's inner name is always renamed). Every type names
// itself instead; this asks the server users run, the bundled CLI, for its schema. One database suffices: the schema
// does not depend on it.
describe.runIf(testDrivers().includes('pglite'))('the GraphQL schema of the bundled server', () => {
  let db: TestDatabase;
  let server: ServeProcess;
  let token: string;
  beforeAll(async () => {
    db = await createTestDatabase('pglite');
    expect((await runCli(['supervisors', 'create', '--username', 'schema', '--role', 'viewer', '--json'], db.env)).code).toBe(0);
    token = JSON.parse((await runCli(['tokens', 'create', '--username', 'schema', '--json'], db.env)).stdout).token;
    server = await startServe(db.env);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('is schema.graphql, type names included', async () => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true }) }),
    });
    expect(res.status).toBe(200);
    const { data, errors } = (await res.json()) as { data: IntrospectionQuery; errors?: unknown };
    expect(errors).toBeUndefined();
    const checkedIn = readFileSync(fileURLToPath(new URL('../../schema.graphql', import.meta.url)), 'utf8');
    expect(canonical(buildClientSchema(data))).toBe(canonical(buildSchema(checkedIn)));
  });
});
