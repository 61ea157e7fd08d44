import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { insightBody } from './insight-body.js';

/**
 * The durable floor: the bare route plus the one thing Vigil promises of every answer — the event is in PostgreSQL,
 * committed, before the answer goes out. Each body is stored whole as one jsonb row, and concurrent requests share
 * commits through Vigil's own group commit (ingest/group-commit.ts) with Vigil's settings, read by Vigil's own
 * schema (config/env.ts): the pool size and the commits' concurrency, overlap, linger and batch size, Vigil's defaults
 * unless the shell sets them, as it does for the Vigil measured beside. So floor ÷ bare is what durability alone costs
 * on this machine and Vigil ÷ floor is what everything else in Vigil costs.
 *
 * Both come from the server's build, by path, as the bench runs the server's CLI: a dependency on the server package
 * would make pnpm link its `vigil` bin into the bench at install time, before any build has made it. Their types are
 * written here by hand for the same reason (typing them from the build would make the bench's type check need the
 * server built first): a renamed option would be dropped silently, so keep these names as the server has them.
 */
const fromServer = (path: string): Promise<unknown> =>
  import(new URL(`../../server/dist/${path}`, import.meta.url).href).catch((error: unknown) => {
    throw new Error(`The durable floor runs the server's group commit: build the server first (${String(error)})`);
  });

interface Settings {
  VIGIL_DB_POOL_SIZE: number;
  VIGIL_COMMIT_CONCURRENCY: number;
  VIGIL_COMMIT_OVERLAP_MS: number;
  VIGIL_COMMIT_LINGER_MS: number;
  VIGIL_COMMIT_BATCH_MAX: number;
}
const { envSchema } = (await fromServer('config/env.js')) as {
  envSchema: { pick(keys: Record<keyof Settings, true>): { parse(env: unknown): Settings } };
};
const settings = envSchema
  .pick({ VIGIL_DB_POOL_SIZE: true, VIGIL_COMMIT_CONCURRENCY: true, VIGIL_COMMIT_OVERLAP_MS: true, VIGIL_COMMIT_LINGER_MS: true, VIGIL_COMMIT_BATCH_MAX: true })
  .parse(process.env);

/** What the floor uses of the server's GroupCommitter. */
interface Committer<I> {
  submit(item: I): Promise<void>;
}
type Row = { id: string; body: unknown };
const { GroupCommitter } = (await fromServer('ingest/group-commit.js')) as {
  GroupCommitter: new (options: {
    commit(items: Row[]): Promise<undefined[]>;
    maxBatch: number;
    concurrency: number;
    overlapAfterMs: number;
    lingerMs: number;
    isolate(): boolean;
  }) => Committer<Row>;
};

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: settings.VIGIL_DB_POOL_SIZE });
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
  maxBatch: settings.VIGIL_COMMIT_BATCH_MAX,
  // As db/open.ts clamps it: at most one commit per connection but one.
  concurrency: Math.max(1, Math.min(settings.VIGIL_COMMIT_CONCURRENCY, settings.VIGIL_DB_POOL_SIZE - 1)),
  overlapAfterMs: settings.VIGIL_COMMIT_OVERLAP_MS,
  lingerMs: settings.VIGIL_COMMIT_LINGER_MS,
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
