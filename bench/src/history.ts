import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPAN_BUCKETS } from '@vigil/drizzle/schema';
import autocannon from 'autocannon';
import pg from 'pg';
import { postEvents } from './bodies.js';
import { perEvent, sampleCpu } from './cpu.js';
import { HISTORY_BEHAVIORS } from './history-behaviors.js';
import { createWriteKey, freePort, postmasterPid, throwawayDatabase, waitHealthy, withClient } from './targets.js';
import { configureWal } from './wal.js';

/**
 * History benchmark: Vigil on PostgreSQL with 5 behaviors, on an empty store and on a store already holding 1 million
 * events (seeded with generate_series, behavior points and buckets filled consistently, as ingestion would have), two
 * databases of one PostgreSQL measured in alternate rounds, so that a drift of the shared machine's speed falls on
 * both. Prints events/s and p99 for both and the ratio full ÷ empty (target ≥ 0.95), with the CPU per event of the
 * server and PostgreSQL, the buffers and the WAL (bytes and full-page images) per event, and the bytes per answer. Run with `pnpm history` (starts a throwaway PostgreSQL). Env: BENCH_SECONDS (10),
 * BENCH_EVENTS (instead of seconds: this many events per measured run, so buffers per event compare across runs),
 * BENCH_CONNECTIONS (64), BENCH_ROUNDS (5 per store), BENCH_HISTORY_EVENTS (1000000), BENCH_HISTORY_DAYS (7: the days
 * the seeded events span), BENCH_WAL (`recommended`: the README's WAL settings; `default`: PostgreSQL's),
 * BENCH_SHARED_BUFFERS (`1GB`, room for the indexes a store of a million events touches, as the README's "PostgreSQL's
 * memory and WAL" asks; `128MB` is PostgreSQL's default; read by `pnpm history`, which starts the server),
 * BENCH_RETURN_VALUES (`on`; `off` answers without the unique behavior's values, see below). With
 * VIGIL_TEST_PG_OPTIONS='-c shared_preload_libraries=pg_stat_statements' it also prints each store's costliest statements.
 */
const CLI = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
// Buffers per event fall as a run re-touches the pages its first events read in: runs of one length in events,
// not seconds, compare on a machine whose speed drifts with the neighbours' load.
const amount = process.env.BENCH_EVENTS ? Number(process.env.BENCH_EVENTS) : undefined;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const historyEvents = Number(process.env.BENCH_HISTORY_EVENTS ?? 1_000_000);
// Over 7 days every seeded event lies inside the longest window (7 days), so the full store's windows are full;
// over more days most of the history is older than any window, as in a store that keeps months of events.
const historyDays = Number(process.env.BENCH_HISTORY_DAYS ?? 7);
if (!process.env.VIGIL_TEST_DATABASE_URL) throw new Error('VIGIL_TEST_DATABASE_URL is not set: run `pnpm history`, which starts PostgreSQL');

// BENCH_RETURN_VALUES=off: no behavior answers with its values, so both stores' answers are of one size, and what is
// left of full ÷ empty is the store's own cost, not the 7-day behavior's ~67 values that only a full window has.
const behaviors = process.env.BENCH_RETURN_VALUES === 'off' ? HISTORY_BEHAVIORS.map((b) => ({ ...b, return_values: false })) : HISTORY_BEHAVIORS;
// Points (and so buckets) only for the events retention keeps them for: the longest window and the day after it.
// Older ones a running store has dropped with their daily partitions; seeding them only to delete them row by row
// from the default partition (where the seed's days land) would take longer than the seed over more than 7 days.
const keptSeconds = Math.max(...behaviors.map((b) => b.window_duration_seconds)) + 86_400;

const configPath = join(mkdtempSync(join(tmpdir(), 'vigil-history-')), 'vigil.json');
writeFileSync(configPath, JSON.stringify({ behaviors }));

/** One store: its database, the environment of a Vigil process on it, and a write key made there. */
interface Store {
  label: string;
  /** Events sent to it, warm-ups included. */
  sent: number;
  url: string;
  env: NodeJS.ProcessEnv;
  key: string;
  keyId: string;
  drop(): Promise<void>;
}

async function openStore(label: string, prefix: string): Promise<Store> {
  const database = await throwawayDatabase(prefix);
  const settings = {
    DATABASE_URL: database.url,
    VIGIL_CONFIG: configPath,
    VIGIL_DB_POOL_SIZE: '20',
    VIGIL_COMMIT_CONCURRENCY: '8',
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_LOG_LEVEL: 'warn',
  };
  const { id, key } = createWriteKey(settings);
  return { label, sent: 0, url: database.url, env: { ...process.env, ...settings }, key, keyId: id, drop: database.drop };
}

const withDatabase = <T>(store: Store, work: (c: pg.Client) => Promise<T>): Promise<T> => withClient(work, store.url);

async function startServer(store: Store): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env: { ...store.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(base, child);
  // A server that does not finish its graceful shutdown in 20 s is killed: the figures are already taken.
  const stop = () =>
    new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('exit', () => (clearTimeout(kill), resolve()));
      child.kill('SIGTERM');
    });
  return { url: base, pid: child.pid, stop };
}

// CPU per event moves far less with the shared machine's drift than events/s: it says whether history costs work.
const postmaster = await postmasterPid();

const walWords = await configureWal();
// Set by `pnpm history` (BENCH_SHARED_BUFFERS) when it starts the server: PostgreSQL reads it only at start.
const sharedBuffers = await withClient(async (c) => (await c.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers);

/**
 * Buffers the database touched so far (shared hits and reads): the work of the run, which unlike events/s and
 * CPU does not move with the other loads on a shared machine. Backends report at exit, so it is read with the
 * server stopped and covers the warm-up too.
 *
 * And the WAL written so far (bytes, and full-page images): the whole server's, which while one store is measured is
 * that store's. The first change of a page after a checkpoint logs the whole page, so a store whose events touch
 * pages spread over gigabytes writes far more WAL per event than a small one until every page it touches has been
 * logged once: the cost that checkpoint spacing and `wal_compression` set (README, "PostgreSQL's memory and WAL").
 */
async function counters(store: Store): Promise<{ hit: number; read: number; walBytes: number; fpi: number }> {
  return withDatabase(store, async (c) => {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query<{ hit: string; read: string; wal_bytes: string; fpi: string }>(
      `SELECT d.blks_hit AS hit, d.blks_read AS read, w.wal_bytes, w.wal_fpi AS fpi
       FROM pg_stat_database d CROSS JOIN pg_stat_wal w WHERE d.datname = current_database()`,
    );
    const r = rows[0]!;
    return { hit: Number(r.hit), read: Number(r.read), walBytes: Number(r.wal_bytes), fpi: Number(r.fpi) };
  });
}

/**
 * Buffers per table and index (partitions counted with their parent): which relations a run's page reads come
 * from, so a change to the store's layout can be aimed and checked.
 */
async function relationBuffers(store: Store): Promise<Map<string, { hit: number; read: number }>> {
  return withDatabase(store, async (c) => {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query<{ name: string; hit: string; read: string }>(
      `SELECT coalesce((SELECT i.inhparent::regclass::text FROM pg_inherits i WHERE i.inhrelid = s.relid), s.relname::text) AS name,
              sum(s.hit) AS hit, sum(s.read) AS read
       FROM (SELECT relid, relname, heap_blks_hit AS hit, heap_blks_read AS read FROM pg_statio_user_tables
             UNION ALL SELECT indexrelid, indexrelname, idx_blks_hit, idx_blks_read FROM pg_statio_user_indexes) AS s
       GROUP BY 1`,
    );
    return new Map(rows.map((r) => [r.name, { hit: Number(r.hit), read: Number(r.read) }]));
  });
}

let counter = 0;
/** The bench's traffic for `duration` seconds (or `events` events) at one server, each event a new body. */
const drive = async (store: Store, url: string, duration: number, events?: number) => {
  const r = await autocannon({
    ...(events ? { amount: events } : {}),
    url: `${url}/events`,
    connections,
    duration,
    ...postEvents(store.key, () => counter++),
  });
  store.sent += r.requests.total;
  return r;
};

/** One measured round on a store: a fresh server, 3 s of warm-up, then BENCH_SECONDS (or BENCH_EVENTS) measured. */
async function measure(store: Store) {
  const { label } = store;
  const startCounters = await counters(store);
  const startRelations = await relationBuffers(store);
  const startCounter = counter;
  const server = await startServer(store);
  let result;
  try {
    await drive(store, server.url, 3); // warm-up
    const load = loadavg()[0]!.toFixed(2);
    const before = sampleCpu(server.pid, postmaster);
    const r = await drive(store, server.url, seconds, amount);
    const cpu = perEvent(before, sampleCpu(server.pid, postmaster), r.requests.total);
    // Bytes of each answer, headers included: a full window answers with more (a `unique` behavior's values), and
    // building, storing and sending them is work that the buffers do not show.
    const answerBytes = r.throughput.total / Math.max(1, r.requests.total);
    result = { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts, load, cpu, answerBytes };
  } finally {
    await server.stop();
  }
  const endCounters = await counters(store);
  const events = counter - startCounter;
  const relations = [...(await relationBuffers(store))]
    .map(([name, end]) => {
      const start = startRelations.get(name) ?? { hit: 0, read: 0 };
      return { name, hits: (end.hit - start.hit) / events, reads: (end.read - start.read) / events };
    })
    .sort((a, b) => b.reads + b.hits / 100 - (a.reads + a.hits / 100))
    .slice(0, 10);
  return {
    ...result,
    relations,
    hits: (endCounters.hit - startCounters.hit) / events,
    reads: (endCounters.read - startCounters.read) / events,
    walKb: (endCounters.walBytes - startCounters.walBytes) / 1024 / events,
    fpi: (endCounters.fpi - startCounters.fpi) / events,
  };
}

/**
 * Brings the empty store to the state a young store is in after its first minute: a few seconds of the same traffic,
 * then the ANALYZE autovacuum runs by then. A just-migrated database has no statistics, and plans made without them
 * may read a table whole for each event (before migration 0020 an unanalyzed `behavior_buckets` was read through its retention index,
 * ~780 pages per event); that lasts until autovacuum's first pass (a minute), so it is not what the store's size
 * costs. The full store is analyzed after its seed, so both are measured with statistics.
 */
async function youngStore(store: Store): Promise<void> {
  const server = await startServer(store);
  try {
    await drive(store, server.url, 3);
  } finally {
    await server.stop();
  }
  await withDatabase(store, (c) => c.query('ANALYZE'));
}

/**
 * 1M events over the last BENCH_HISTORY_DAYS days (7: all of it inside the longest window) for the bench's users and
 * devices, plus their behavior points and buckets.
 */
async function seed(store: Store): Promise<void> {
  const { keyId } = store;
  await withDatabase(store, async (c) => {
    const started = Date.now();
    await c.query(
      `INSERT INTO events (id, key_id, name, identity, device_id, handprint_id, ip, properties, tags, risk_score, response, occurred_at, received_at)
       SELECT 'evt_seed' || n, $1, CASE WHEN n % 3 = 0 THEN 'transfer' ELSE 'login' END,
              'user' || (n % 5000) || '@example.com', 'device-' || (n % 5000 % 4000), 'hp_seed',
              '203.0.' || ((n % 5000) >> 8 & 255) || '.' || ((n % 5000) & 255),
              CASE WHEN n % 3 = 0 THEN jsonb_build_object('amount', (n % 977) + 0.5, 'recipient', 'acct-' || (n % 1234))
                   ELSE '{}'::jsonb END,
              '{}', 0, '{}'::jsonb, t, t
       FROM (SELECT n, now() - make_interval(days => $3) + (n::float8 / $2) * make_interval(days => $3) - interval '1 minute' AS t
             FROM generate_series(1, $2::int) AS n) AS s`,
      [keyId, historyEvents, historyDays],
    );
    const defs = await c.query<{ id: string; name: string; bucket_ms: string }>('SELECT id, name, bucket_ms FROM behavior_definitions WHERE enabled');
    // The same group keys, values and items the engine derives (behaviors/fields.ts), computed in SQL.
    const shape: Record<string, { where: string; group: string; value: string; item: string }> = {
      tx_count_1h: { where: `name = 'transfer'`, group: 'identity', value: 'NULL::float8', item: 'NULL::text' },
      tx_sum_24h: { where: `name = 'transfer'`, group: 'identity', value: `(properties->>'amount')::float8`, item: 'NULL::text' },
      events_per_device_1h: { where: 'true', group: 'device_id', value: 'NULL::float8', item: 'NULL::text' },
      ips_per_identity_24h: { where: 'true', group: 'identity', value: 'NULL::float8', item: 'ip' },
      recipients_7d: { where: `name = 'transfer'`, group: 'identity', value: 'NULL::float8', item: `properties->>'recipient'` },
    };
    for (const d of defs.rows) {
      const s = shape[d.name]!;
      await c.query(
        `INSERT INTO behavior_points (behavior_id, group_key, at, value, item)
         SELECT $1, ${s.group}, (extract(epoch from occurred_at) * 1000)::int8, ${s.value}, ${s.item}
         FROM events WHERE id LIKE 'evt_seed%' AND occurred_at > now() - make_interval(secs => $2) AND ${s.where}`,
        [d.id, keptSeconds],
      );
    }
    // Every behavior's buckets in one statement, in the order ingestion leaves them (by the time of a bucket's last
    // event, whose update wrote the row where it lies; the behaviors mixed): a bucket lies on the pages of its hour,
    // as in a store that grew by ingestion. Built from all points, the earlier runs' included, so their buckets are
    // replaced rather than added to. Only the buckets daily retention keeps (a behavior's window and a day, as
    // retention/run.ts cuts them): writing a week of the 1 h and 24 h behaviors' buckets and deleting three in four
    // left their primary key three quarters empty (2.8 M entries for 0.75 M rows, never vacuumed during the run),
    // where a store retained daily refills the space each day's deletion frees with the same groups' new buckets.
    await c.query('DELETE FROM behavior_buckets');
    await c.query(
      `INSERT INTO behavior_buckets (behavior_id, group_key, bucket, count, sum, items, hll, first_at, last_at)
       SELECT p.behavior_id, p.group_key, floor(p.at::float8 / d.bucket_ms)::int8, count(*), coalesce(sum(p.value), 0),
              CASE WHEN d.definition->>'operation' = 'unique' THEN array_agg(DISTINCT p.item) FILTER (WHERE p.item IS NOT NULL) END,
              NULL, min(p.at), max(p.at)
       FROM behavior_points p JOIN behavior_definitions d ON d.id = p.behavior_id
       WHERE d.enabled
         AND floor(p.at::float8 / d.bucket_ms) >= floor(((extract(epoch from now()) * 1000)::int8
               - (d.definition->>'window_duration_seconds')::int8 * 1000 - 86400000)::float8 / d.bucket_ms)
       GROUP BY p.behavior_id, p.group_key, floor(p.at::float8 / d.bucket_ms)::int8, d.definition->>'operation'
       ORDER BY max(p.at)`,
    );
    // The spans ingestion would have built: a window reading a span whole builds it once it holds three buckets or
    // more (none with a HyperLogLog), so a week of traffic leaves every such span before the current one built,
    // each written about when its last bucket was.
    await c.query('DELETE FROM behavior_spans');
    await c.query(
      `INSERT INTO behavior_spans (behavior_id, group_key, span, count, sum, items)
       SELECT k.behavior_id, k.group_key, k.bucket / ${SPAN_BUCKETS},
              sum(k.count), sum(k.sum),
              CASE WHEN d.definition->>'operation' = 'unique' THEN ARRAY(SELECT DISTINCT v FROM unnest(vigil_cat_items(k.items)) AS v) END
       FROM behavior_buckets k JOIN behavior_definitions d ON d.id = k.behavior_id
       WHERE k.bucket / ${SPAN_BUCKETS} < (extract(epoch from now()) * 1000)::int8 / d.bucket_ms / ${SPAN_BUCKETS}
       GROUP BY k.behavior_id, k.group_key, k.bucket / ${SPAN_BUCKETS}, d.definition->>'operation'
       HAVING count(*) >= 3 AND bool_and(k.hll IS NULL)
       ORDER BY max(k.last_at)`,
    );
    await c.query('VACUUM ANALYZE');
    // Otherwise the seed's gigabytes of dirty pages are written out during the measured run, and every page first
    // touched after the checkpoint starts costs a full-page image in the WAL: the seed's cost, not history's.
    await c.query('CHECKPOINT');
    const counts = await c.query<{ events: string; points: string; buckets: string; spans: string }>(
      `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM behavior_points) AS points, (SELECT count(*) FROM behavior_buckets) AS buckets,
              (SELECT count(*) FROM behavior_spans) AS spans`,
    );
    const { events, points, buckets, spans } = counts.rows[0]!;
    console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s: ${events} events, ${points} behavior points, ${buckets} buckets, ${spans} spans`);
  });
}

/**
 * The retention run a store of this age has had every day: the seed wrote only the buckets it keeps (a behavior's
 * window and a day), so it deletes the few that aged out since, and the events older than the retention policy.
 */
async function dailyRetention(store: Store): Promise<void> {
  const run = spawnSync(process.execPath, [CLI, 'retention', 'run'], { env: store.env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`retention run failed: ${run.stderr}`);
  console.log(`retention run: ${run.stdout.trim().split('\n').join('; ')}`);
  await withDatabase(store, async (c) => {
    await c.query('ANALYZE behavior_buckets');
    await c.query('CHECKPOINT');
    const { rows } = await c.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    console.log(`store size: ${(Number(rows[0]!.bytes) / 2 ** 30).toFixed(2)} GiB (pg_database_size)`);
  });
}

/**
 * The statements that took the most of PostgreSQL's time on each store, per event sent to it (warm-ups included), when
 * the server loads pg_stat_statements (VIGIL_TEST_PG_OPTIONS='-c shared_preload_libraries=pg_stat_statements', with
 * `-c track_io_timing=on` for the time spent reading pages from outside shared buffers, and
 * `-c pg_stat_statements.track_planning=on` for the plans and their time): which statement a full store makes dearer,
 * where the totals only say that one is. Planning is apart from execution. Most plans are a new connection's: each
 * connection plans a prepared statement anew for its first five runs, then its generic plan once where PostgreSQL
 * settles on one, and every round's fresh `vigil serve` opens its pool anew, so a short round pays what a
 * long-running server pays once.
 */
async function statementReport(store: Store): Promise<void> {
  const events = store.sent;
  await withDatabase(store, async (c) => {
    const { rows: loaded } = await c.query<{ on: boolean }>(`SELECT current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%' AS on`);
    if (!loaded[0]!.on) return;
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await c.query<{ calls: string; ms: number; plans: string; plan_ms: number; hit: string; read: string; read_ms: number; query: string }>(
      `SELECT calls, total_exec_time AS ms, plans, total_plan_time AS plan_ms, shared_blks_hit AS hit, shared_blks_read AS read, blk_read_time AS read_ms,
              regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND calls >= 100
       ORDER BY total_exec_time DESC LIMIT 10`,
    );
    console.log(
      `\nstatements by PostgreSQL time, ${store.label} (${events} events sent): µs per event, calls per event, per call: µs, buffers (hit + read) and µs reading them (with track_io_timing); ` +
        'plans, and µs planning per event (with pg_stat_statements.track_planning)',
    );
    for (const r of rows) {
      const calls = Number(r.calls);
      console.log(
        `  ${((r.ms * 1000) / events).toFixed(1).padStart(7)} ${(calls / events).toFixed(2).padStart(6)} ${((r.ms * 1000) / calls).toFixed(0).padStart(6)} ${(Number(r.hit) / calls).toFixed(1).padStart(7)} ${(Number(r.read) / calls).toFixed(2).padStart(6)} ${((r.read_ms * 1000) / calls).toFixed(0).padStart(5)} ${r.plans.padStart(6)} ${((r.plan_ms * 1000) / events).toFixed(1).padStart(6)}  ${r.query.slice(0, 100)}`,
      );
    }
  });
}

type Round = Awaited<ReturnType<typeof measure>>;
const cpu = (r: Round) => r.cpu.server + r.cpu.postgres;
/** The round with the median events/s. */
const median = (runs: Round[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

const stores: Store[] = [];
try {
  const empty = await openStore('empty store', 'vigil_history_empty');
  stores.push(empty);
  const full = await openStore(`${(historyEvents / 1e6).toFixed(1)}M events/${historyDays}d`, 'vigil_history_full');
  stores.push(full);
  await youngStore(empty);
  await youngStore(full);
  await seed(full);
  await dailyRetention(full);
  const runs = new Map<Store, Round[]>([
    [empty, []],
    [full, []],
  ]);
  for (let round = 0; round < rounds; round++) {
    for (const store of [empty, full]) runs.get(store)!.push(await measure(store));
    console.log(`round ${round + 1}/${rounds} done`);
  }

  console.log(
    `\nPostgreSQL (shared_buffers=${sharedBuffers}; WAL: ${walWords}), 5 behaviors, ${connections} connections, ${amount ? `${amount} events` : `${seconds} s`} a round, ${rounds} rounds a store in alternation (load average before each round shown)`,
  );
  console.log(
    `${'store'.padEnd(16)} ${'events/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'load'.padStart(6)} ${'server µs'.padStart(10)} ${'pg µs'.padStart(7)} ${'buf hit/ev'.padStart(10)} ${'read/ev'.padStart(8)} ${'WAL kB/ev'.padStart(9)} ${'FPI/ev'.padStart(7)} ${'answer B'.padStart(8)}`,
  );
  for (let round = 0; round < rounds; round++) {
    for (const store of [empty, full]) {
      const r = runs.get(store)![round]!;
      console.log(
        `${`${r.label} ${round + 1}`.padEnd(16)} ${r.rps.toFixed(0).padStart(9)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.errors).padStart(7)} ${r.load.padStart(6)} ${r.cpu.server.toFixed(0).padStart(10)} ${r.cpu.postgres.toFixed(0).padStart(7)} ${r.hits.toFixed(1).padStart(10)} ${r.reads.toFixed(2).padStart(8)} ${r.walKb.toFixed(1).padStart(9)} ${r.fpi.toFixed(2).padStart(7)} ${r.answerBytes.toFixed(0).padStart(8)}`,
      );
    }
  }
  const e = median(runs.get(empty)!);
  const f = median(runs.get(full)!);
  for (const r of [e, f]) {
    console.log(`\nbuffers per event by relation, ${r.label}, median round (most reads first): hits + reads`);
    for (const x of r.relations) console.log(`  ${x.name.padEnd(44)} ${x.hits.toFixed(1).padStart(7)} ${x.reads.toFixed(2).padStart(7)}`);
  }
  const byRound = runs.get(full)!.map((r, i) => (r.rps / runs.get(empty)![i]!.rps).toFixed(2));
  console.log(
    `\nthroughput full ÷ empty (median rounds): ${(f.rps / e.rps).toFixed(2)} (target ≥ 0.95; by round ${byRound.join(' / ')}); p99 full ÷ empty: ${(f.p99 / e.p99).toFixed(2)}`,
  );
  console.log(`CPU per event (server + PostgreSQL) empty ÷ full: ${(cpu(e) / cpu(f)).toFixed(2)}`);
  console.log(`database buffers per event (hits + reads) empty ÷ full: ${((e.hits + e.reads) / (f.hits + f.reads)).toFixed(2)}`);
  console.log(
    `bytes per answer (headers included) empty ÷ full: ${(e.answerBytes / f.answerBytes).toFixed(2)} (${e.answerBytes.toFixed(0)} and ${f.answerBytes.toFixed(0)})`,
  );
  console.log(
    `WAL per event empty ÷ full: ${(e.walKb / f.walKb).toFixed(2)} (full-page images per event: empty ${e.fpi.toFixed(2)}, full ${f.fpi.toFixed(2)})`,
  );
  for (const store of [empty, full]) await statementReport(store);
} finally {
  for (const store of stores) await store.drop();
}
