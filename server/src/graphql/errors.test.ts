import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { buildSchema } from 'graphql';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseHealth } from '../db/health.js';
import { formatError, unavailableAnswers } from './errors.js';

const shutDown = () => Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), { code: '57P01' });

/** A plugin that reads the database before execution, as the cost limit reads its row estimates. */
const readsBeforeExecution = (error: () => Error): ApolloServerPlugin => ({
  async requestDidStart() {
    return {
      async didResolveOperation() {
        throw error();
      },
    };
  },
});

/** A resolver meeting the error node-postgres raises when PostgreSQL is shut down under it. */
async function answer(query: string, plugins: ApolloServerPlugin[] = []) {
  const health = new DatabaseHealth({ ping: async () => {} });
  const apollo = new ApolloServer({
    schema: buildSchema('type Query { devices: Int, ok: Int, nul: Int }'),
    rootValue: {
      devices: () => {
        throw shutDown();
      },
      nul: () => {
        throw Object.assign(new pg.DatabaseError('invalid byte sequence for encoding "UTF8": 0x00', 0, 'error'), { code: '22021' });
      },
      ok: () => 1,
    },
    formatError,
    plugins: [unavailableAnswers(health), ...plugins],
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

  it('answers 503, not internal, when the fault comes from a plugin before execution (the cost limit)', async () => {
    const res = await answer('{ ok }', [readsBeforeExecution(shutDown)]);
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'unavailable' });
    expect(res.fault).toBe('connection');
  });

  it('answers validation_failed, not internal, for text the database refused (the backstop)', async () => {
    const res = await answer('{ nul }');
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(JSON.stringify(res.body)).not.toMatch(/UTF8|0x00/);
  });

  it('leaves answers without a fault alone', async () => {
    const res = await answer('{ ok }');
    expect(res.status ?? 200).toBe(200);
    expect(res.headers.get('retry-after')).toBeUndefined();
    expect(res.body).toEqual({ data: { ok: 1 } });
  });
});
