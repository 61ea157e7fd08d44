import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { GroupCommitter } from '@vigil/server/dist/ingest/group-commit.js';
import { insightBody } from './insight-body.js';

/**
 * The durable floor: the bare route plus the one thing Vigil promises of every answer — the event is in PostgreSQL,
 * committed, before the answer goes out. Each body is stored whole as one jsonb row, and concurrent requests share
 * commits through Vigil's own group commit (a pool of 10; VIGIL_COMMIT_OVERLAP_MS and VIGIL_COMMIT_CONCURRENCY at
 * Vigil's defaults unless the shell sets them, as it does for the Vigil measured beside), so floor ÷ bare is what durability alone costs on this machine and Vigil ÷ floor is
 * what everything else in Vigil costs.
 */
const POOL_SIZE = 10;
// As Vigil reads them (config/env.ts, db/open.ts): at most one commit per connection but one.
const COMMITS_IN_FLIGHT = Math.max(1, Math.min(Number(process.env.VIGIL_COMMIT_CONCURRENCY ?? 4), POOL_SIZE - 1));
const OVERLAP_AFTER_MS = Number(process.env.VIGIL_COMMIT_OVERLAP_MS ?? 50);
const MAX_BATCH = Number(process.env.VIGIL_COMMIT_BATCH_MAX ?? 500);

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
await pool.query(`CREATE TABLE IF NOT EXISTS floor_events (
  id text PRIMARY KEY,
  body jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
)`);

// Vigil's own group commit, so the floor cannot drift from the policy it is the baseline of.
const committer = new GroupCommitter<{ id: string; body: unknown }, void>({
  maxBatch: MAX_BATCH,
  concurrency: COMMITS_IN_FLIGHT,
  overlapAfterMs: OVERLAP_AFTER_MS,
  async commit(rows) {
    await pool.query('INSERT INTO floor_events (id, body) SELECT r.id, r.body FROM jsonb_to_recordset($1::jsonb) AS r(id text, body jsonb)', [
      JSON.stringify(rows),
    ]);
    return rows.map(() => undefined);
  },
});

const app = Fastify({ logger: false });
app.post('/events', async (request) => {
  await committer.submit({ id: randomUUID(), body: request.body });
  return insightBody;
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
