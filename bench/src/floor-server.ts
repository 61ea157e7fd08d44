import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { insightBody } from './insight-body.js';

/**
 * The durable floor: the bare route plus the one thing Vigil promises of every answer — the event is in PostgreSQL,
 * committed, before the answer goes out. Each body is stored whole as one jsonb row, and concurrent requests share
 * commits the way Vigil's do (a pool of 10; a commit starts once its oldest request has waited VIGIL_COMMIT_LINGER_MS or
 * it is full; one in flight, another beside it once the newest in flight has run VIGIL_COMMIT_OVERLAP_MS, up to
 * VIGIL_COMMIT_CONCURRENCY; Vigil's defaults unless the shell sets them, as it does for the Vigil measured beside), so
 * floor ÷ bare is what durability alone costs on this machine and Vigil ÷ floor is what everything else in Vigil costs.
 */
const POOL_SIZE = 10;
// As Vigil reads them (config/env.ts, db/open.ts): at most one commit per connection but one.
const COMMITS_IN_FLIGHT = Math.max(1, Math.min(Number(process.env.VIGIL_COMMIT_CONCURRENCY ?? 4), POOL_SIZE - 1));
const OVERLAP_AFTER_MS = Number(process.env.VIGIL_COMMIT_OVERLAP_MS ?? 50);
const MAX_BATCH = Number(process.env.VIGIL_COMMIT_BATCH_MAX ?? 500);
const LINGER_MS = Number(process.env.VIGIL_COMMIT_LINGER_MS ?? 0);

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
await pool.query(`CREATE TABLE IF NOT EXISTS floor_events (
  id text PRIMARY KEY,
  body jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
)`);

interface Waiting {
  row: { id: string; body: unknown };
  at: number;
  done(error?: unknown): void;
}
const queue: Waiting[] = [];
/**
 * When each commit in flight started, oldest first. This queue is a copy of the policy of Vigil's GroupCommitter
 * (ingest/group-commit.ts), kept in step by hand: importing it would make the bench depend on the server package,
 * and pnpm would then link the server's `vigil` bin into the bench at install time, before any build has made it.
 */
const starts: number[] = [];
let overlapTimer: NodeJS.Timeout | undefined;
let lingerTimer: NodeJS.Timeout | undefined;

function pump(): void {
  while (queue.length > 0 && starts.length < COMMITS_IN_FLIGHT) {
    const wait = starts.length === 0 ? 0 : starts.at(-1)! + OVERLAP_AFTER_MS - performance.now();
    if (wait > 0) {
      if (overlapTimer === undefined) {
        overlapTimer = setTimeout(() => {
          overlapTimer = undefined;
          pump();
        }, Math.ceil(wait)).unref();
      }
      return;
    }
    const linger = queue.length >= MAX_BATCH ? 0 : queue[0]!.at + LINGER_MS - performance.now();
    if (linger > 0) {
      if (lingerTimer === undefined) {
        lingerTimer = setTimeout(() => {
          lingerTimer = undefined;
          pump();
        }, Math.ceil(linger));
      }
      return;
    }
    const batch = queue.splice(0, MAX_BATCH);
    const started = performance.now();
    starts.push(started);
    pool
      .query('INSERT INTO floor_events (id, body) SELECT r.id, r.body FROM jsonb_to_recordset($1::jsonb) AS r(id text, body jsonb)', [
        JSON.stringify(batch.map((w) => w.row)),
      ])
      .then(
        () => batch.forEach((w) => w.done()),
        (error: unknown) => batch.forEach((w) => w.done(error)),
      )
      .finally(() => {
        starts.splice(starts.indexOf(started), 1);
        pump();
      });
  }
}

function store(body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    queue.push({ row: { id: randomUUID(), body }, at: performance.now(), done: (error) => (error === undefined ? resolve() : reject(error)) });
    // Requests parsed in the same I/O turn share a commit, as in Vigil; a full queue need not linger.
    if (queue.length === 1 || queue.length === MAX_BATCH) setImmediate(pump);
  });
}

const app = Fastify({ logger: false });
app.post('/events', async (request) => {
  await store(request.body);
  return insightBody;
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
