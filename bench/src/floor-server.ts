import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { insightBody } from './insight-body.js';

/**
 * The durable floor: the bare route plus the one thing Vigil promises of every answer — the event is in PostgreSQL,
 * committed, before the answer goes out. Each body is stored whole as one jsonb row, and concurrent requests share
 * commits through Vigil's own group commit (ingest/group-commit.ts, from the server's build) with Vigil's settings (a
 * pool of 10; VIGIL_COMMIT_CONCURRENCY, VIGIL_COMMIT_OVERLAP_MS, VIGIL_COMMIT_LINGER_MS and VIGIL_COMMIT_BATCH_MAX,
 * Vigil's defaults unless the shell sets them, as it does for the Vigil measured beside), so floor ÷ bare is what
 * durability alone costs on this machine and Vigil ÷ floor is what everything else in Vigil costs.
 */
const POOL_SIZE = 10;
// As Vigil reads them (config/env.ts, db/open.ts): at most one commit per connection but one.
const COMMITS_IN_FLIGHT = Math.max(1, Math.min(Number(process.env.VIGIL_COMMIT_CONCURRENCY ?? 4), POOL_SIZE - 1));
const OVERLAP_AFTER_MS = Number(process.env.VIGIL_COMMIT_OVERLAP_MS ?? 50);
const MAX_BATCH = Number(process.env.VIGIL_COMMIT_BATCH_MAX ?? 500);
const LINGER_MS = Number(process.env.VIGIL_COMMIT_LINGER_MS ?? 0);

/** What the floor uses of the server's GroupCommitter. */
interface Committer<I> {
  submit(item: I): Promise<void>;
}
type Row = { id: string; body: unknown };
/**
 * Imported from the server's build by path, as the bench runs the server's CLI: a dependency on the server package
 * would make pnpm link its `vigil` bin into the bench at install time, before any build has made it. Its options are
 * typed here by hand for the same reason (typing them from the build would make the bench's type check need the
 * server built first): a renamed option would be dropped silently, so keep these names as GroupCommitOptions has them.
 */
const GROUP_COMMIT = new URL('../../server/dist/ingest/group-commit.js', import.meta.url).href;
const { GroupCommitter } = (await import(GROUP_COMMIT).catch((error: unknown) => {
  throw new Error(`The durable floor commits through the server's group commit: build the server first (${String(error)})`);
})) as {
  GroupCommitter: new (options: {
    commit(items: Row[]): Promise<undefined[]>;
    maxBatch: number;
    concurrency: number;
    overlapAfterMs: number;
    lingerMs: number;
    isolate(): boolean;
  }) => Committer<Row>;
};

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
await pool.query(`CREATE TABLE IF NOT EXISTS floor_events (
  id text PRIMARY KEY,
  body jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
)`);

const committer = new GroupCommitter({
  async commit(rows) {
    await pool.query('INSERT INTO floor_events (id, body) SELECT r.id, r.body FROM jsonb_to_recordset($1::jsonb) AS r(id text, body jsonb)', [
      JSON.stringify(rows),
    ]);
    return rows.map(() => undefined);
  },
  maxBatch: MAX_BATCH,
  concurrency: COMMITS_IN_FLIGHT,
  overlapAfterMs: OVERLAP_AFTER_MS,
  lingerMs: LINGER_MS,
  // A failed batch fails its requests; the floor has no item to blame apart.
  isolate: () => false,
});

const app = Fastify({ logger: false });
app.post('/events', async (request) => {
  await committer.submit({ id: randomUUID(), body: request.body });
  return insightBody;
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
