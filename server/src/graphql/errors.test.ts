import { ApolloServer, HeaderMap } from '@apollo/server';
import { buildSchema } from 'graphql';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseHealth } from '../db/health.js';
import { formatError, unavailableAnswers } from './errors.js';

/** A resolver meeting the error node-postgres raises when PostgreSQL is shut down under it. */
async function answer(query: string) {
  const health = new DatabaseHealth({ ping: async () => {} });
  const apollo = new ApolloServer({
    schema: buildSchema('type Query { devices: Int, ok: Int }'),
    rootValue: {
      devices: () => {
        throw Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), { code: '57P01' });
      },
      ok: () => 1,
    },
    formatError,
    plugins: [unavailableAnswers(health)],
  });
  await apollo.start();
  try {
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers: new HeaderMap([['content-type', 'application/json']]), search: '', body: { query } },
      context: async () => ({}),
    });
    const body = response.body.kind === 'complete' ? JSON.parse(response.body.string) : undefined;
    return { status: response.status, headers: response.headers, body, fault: health.fault };
  } finally {
    await apollo.stop();
  }
}

describe('GraphQL during a database fault', () => {
  it('answers HTTP 503 with Retry-After and extensions.code unavailable, without internals', async () => {
    const res = await answer('{ devices }');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'unavailable', status: 503 });
    expect(JSON.stringify(res.body)).not.toMatch(/administrator|57P01/);
    // The fault reaches the database's health, so /readyz turns not ready at once.
    expect(res.fault).toBe('connection');
  });

  it('leaves answers without a fault alone', async () => {
    const res = await answer('{ ok }');
    expect(res.status ?? 200).toBe(200);
    expect(res.headers.get('retry-after')).toBeUndefined();
    expect(res.body).toEqual({ data: { ok: 1 } });
  });
});
