import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, throwawayDatabase, waitHealthy } from './targets.js';

/**
 * Aggregates benchmark: a real migrated PostgreSQL holding a million events (seeded with generate_series, with the
 * registration of the moment in each stored response, as ingestion writes it) and 20,000 devices. Each aggregate is
 * asked through GraphQL (`eventStats`, `deviceStats` over HTTP, as a BI client asks) and as the best hand-written
 * SQL for the same answer, on the same database; the medians are printed side by side with the ratio (target ≤ 2).
 * Run with `pnpm --filter @vigil/bench aggregates` (starts a throwaway PostgreSQL). Env: BENCH_AGG_EVENTS
 * (1000000), BENCH_AGG_RUNS (3).
 */
const CLI = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const total = Number(process.env.BENCH_AGG_EVENTS ?? 1_000_000);
const runs = Number(process.env.BENCH_AGG_RUNS ?? 3);
if (!process.env.VIGIL_TEST_DATABASE_URL) throw new Error('VIGIL_TEST_DATABASE_URL is not set: run `pnpm aggregates`, which starts PostgreSQL');

const database = await throwawayDatabase('vigil_aggregates');
const env = {
  ...process.env,
  DATABASE_URL: database.url,
  VIGIL_LOG_LEVEL: 'warn',
  VIGIL_RATE_LIMIT_RPS: '0',
  // The point is the aggregate's speed, not the default guard against long reads.
  VIGIL_REPORTING_STATEMENT_TIMEOUT_MS: '600000',
};
const FROM = '2025-01-06T00:00:00Z';
const TO = '2025-02-03T00:00:00Z';

function cli(args: string[]): any {
  const run = spawnSync(process.execPath, [CLI, ...args, '--json'], { env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`vigil ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Events over four weeks: 4 names, 0–3 of 5 tags, 20,000 devices of 5,000 users in 10 branches and 4 roles. */
async function seed(c: pg.Client, keyId: string): Promise<void> {
  const started = Date.now();
  await c.query(
    `INSERT INTO events (id, key_id, name, identity, device_id, handprint_id, properties, tags, risk_score, response, occurred_at, received_at)
     SELECT 'evt_agg' || n, $1, (ARRAY['login','transfer','signup','payment'])[1 + n % 4], 'user' || (n % 20000 % 5000),
            'device-' || (n % 20000), 'hp_agg', '{}'::jsonb,
            CASE (n * 7) % 5 WHEN 0 THEN '{}'::text[] WHEN 1 THEN '{vpn}' WHEN 2 THEN '{new_device,vpn}' WHEN 3 THEN '{tor,emulator,vpn}' ELSE '{multi_user}' END,
            ((n::int8 * 7919) % 1000) / 1000.0,
            jsonb_build_object('device', CASE WHEN n % 20000 < 15000
              THEN jsonb_build_object('registered_to', 'user' || (n % 20000 % 5000), 'role', (ARRAY['teller','agent','manager','auditor'])[1 + n % 20000 % 4],
                                      'metadata', jsonb_build_object('branch', 'branch-' || (n % 20000 % 10)))
              ELSE jsonb_build_object('registered_to', NULL, 'role', NULL, 'metadata', '{}'::jsonb) END),
            t, t
     FROM (SELECT n, $2::timestamptz + (n::float8 / $3) * ($4::timestamptz - $2::timestamptz) AS t FROM generate_series(1, $3::int) AS n) AS s`,
    [keyId, FROM, total, TO],
  );
  await c.query(
    `INSERT INTO devices (id, device_id, first_seen, last_seen)
     SELECT 'dev_agg' || n, 'device-' || n, $1::timestamptz, $2::timestamptz FROM generate_series(0, 19999) AS n`,
    [FROM, TO],
  );
  await c.query(
    `INSERT INTO registrations (device_id, user_id, role, metadata, status, registered_at, associated_since, updated_at)
     SELECT 'device-' || n, 'user' || (n % 5000), (ARRAY['teller','agent','manager','auditor'])[1 + n % 4],
            jsonb_build_object('branch', 'branch-' || (n % 10)), CASE WHEN n % 17 = 0 THEN 'deactivated' ELSE 'active' END,
            $1::timestamptz, $1::timestamptz, $1::timestamptz
     FROM generate_series(0, 14999) AS n`,
    [FROM],
  );
  await c.query('VACUUM ANALYZE');
  await c.query('CHECKPOINT');
  console.log(`seeded ${total.toLocaleString('en')} events and 20,000 devices in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

interface Case {
  name: string;
  graphql: { query: string; variables?: Record<string, unknown> };
  sql: { text: string; values?: unknown[] };
}

const range = { from: FROM, to: TO };
const untagged = `unnest(CASE WHEN cardinality(tags) = 0 THEN ARRAY[NULL]::text[] ELSE tags END) AS t(tag)`;
const stats = 'count meanScore maxScore distinctDevices';
const cases: Case[] = [
  {
    name: 'events day × branch × tag (Paris)',
    graphql: {
      query: `query ($f: EventFilter) { eventStats(filter: $f, groupBy: [BRANCH, TAG], bucket: DAY, timeZone: "Europe/Paris") { bucket branch tag ${stats} } }`,
      variables: { f: range },
    },
    sql: {
      text: `SELECT date_trunc('day', occurred_at, 'Europe/Paris') AS d, t.tag, response->'device'->'metadata'->>'branch' AS b,
               count(*), avg(risk_score), max(risk_score), count(DISTINCT device_id)
             FROM events CROSS JOIN LATERAL ${untagged} WHERE occurred_at >= $1 AND occurred_at < $2 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      values: [FROM, TO],
    },
  },
  {
    name: 'events hour × event, score ≥ 0.5',
    graphql: {
      query: `query ($f: EventFilter) { eventStats(filter: $f, groupBy: [EVENT], bucket: HOUR) { bucket event ${stats} } }`,
      variables: { f: { ...range, minScore: 0.5 } },
    },
    sql: {
      text: `SELECT date_trunc('hour', occurred_at, 'UTC'), name, count(*), avg(risk_score), max(risk_score), count(DISTINCT device_id)
             FROM events WHERE risk_score >= 0.5 AND occurred_at >= $1 AND occurred_at < $2 GROUP BY 1, 2 ORDER BY 1, 2`,
      values: [FROM, TO],
    },
  },
  {
    name: 'events by user, transfers',
    graphql: { query: `query ($f: EventFilter) { eventStats(filter: $f, groupBy: [USER]) { userId ${stats} } }`, variables: { f: { event: 'transfer' } } },
    sql: {
      text: `SELECT response->'device'->>'registered_to', count(*), avg(risk_score), max(risk_score), count(DISTINCT device_id)
             FROM events WHERE name = 'transfer' GROUP BY 1 ORDER BY 1`,
    },
  },
  {
    name: 'events week × role (New York)',
    graphql: { query: `{ eventStats(groupBy: [ROLE], bucket: WEEK, timeZone: "America/New_York") { bucket role ${stats} } }` },
    sql: {
      text: `SELECT date_trunc('week', occurred_at, 'America/New_York'), response->'device'->>'role', count(*), avg(risk_score), max(risk_score), count(DISTINCT device_id)
             FROM events GROUP BY 1, 2 ORDER BY 1, 2`,
    },
  },
  {
    name: 'events totals',
    graphql: { query: `{ eventStats(groupBy: []) { ${stats} } }` },
    sql: { text: `SELECT count(*), avg(risk_score), max(risk_score), count(DISTINCT device_id) FROM events` },
  },
  {
    name: 'devices status × branch',
    graphql: { query: `{ deviceStats(groupBy: [STATUS, BRANCH]) { status branch count } }` },
    sql: {
      text: `SELECT COALESCE(r.status, 'unregistered'), r.metadata->>'branch', count(*)
             FROM registrations r FULL JOIN devices d ON d.device_id = r.device_id GROUP BY 1, 2 ORDER BY 1, 2`,
    },
  },
  {
    name: 'devices by latest tag',
    graphql: { query: `{ deviceStats(groupBy: [TAG]) { tag count } }` },
    sql: {
      text: `SELECT t.tag, count(*) FROM (SELECT COALESCE(r.device_id, d.device_id) AS id FROM registrations r FULL JOIN devices d ON d.device_id = r.device_id) AS x
             CROSS JOIN LATERAL unnest(COALESCE(NULLIF((SELECT tags FROM events e WHERE e.device_id = x.id ORDER BY occurred_at DESC LIMIT 1), '{}'), ARRAY[NULL]::text[])) AS t(tag)
             GROUP BY 1 ORDER BY 1`,
    },
  },
];

/** A POST on a connection of its own: a pooled one may have been closed by the server while the seed ran. */
function postJson(url: string, token: string, body: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median after a warm-up (caches and plans, for both sides alike): at least `runs` runs, more for quick ones (2 s). */
async function time(work: () => Promise<unknown>): Promise<number> {
  await work();
  const samples: number[] = [];
  const started = Date.now();
  while (samples.length < runs || (Date.now() - started < 2000 && samples.length < 50)) {
    const at = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - at) / 1e6);
  }
  return median(samples);
}

let server: ChildProcess | undefined;
try {
  const port = await freePort();
  server = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, server);
  const key = cli(['keys', 'create', '--kind', 'write', '--name', 'bench']) as { id: string };
  cli(['supervisors', 'create', '--username', 'bench', '--role', 'viewer']);
  const { token } = cli(['tokens', 'create', '--username', 'bench']) as { token: string };
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    await seed(c, key.id);
    console.log(`\nmedian of ≥ ${runs} runs after a warm-up, ms (GraphQL over HTTP includes parsing, pricing and JSON)`);
    console.log(`${'aggregate'.padEnd(36)} ${'rows'.padStart(6)} ${'GraphQL'.padStart(9)} ${'SQL'.padStart(9)} ${'ratio'.padStart(6)}`);
    // What any GraphQL operation costs over HTTP (authentication, parsing, pricing, JSON) before it reads a row.
    const floor = await time(() => postJson(`${url}/graphql`, token, { query: '{ me { username } }' }));
    console.log(`${'GraphQL floor: { me { username } }'.padEnd(36)} ${'1'.padStart(6)} ${floor.toFixed(0).padStart(9)}`);
    for (const k of cases) {
      let rows = 0;
      const viaGraphql = await time(async () => {
        const body = (await postJson(`${url}/graphql`, token, k.graphql)) as { data?: Record<string, unknown[]>; errors?: unknown[] };
        if (body.errors) throw new Error(`${k.name}: ${JSON.stringify(body.errors)}`);
        rows = Object.values(body.data!)[0]!.length;
      });
      let sqlRows = 0;
      const viaSql = await time(async () => (sqlRows = (await c.query(k.sql.text, k.sql.values)).rowCount ?? 0));
      if (sqlRows !== rows) throw new Error(`${k.name}: GraphQL answered ${rows} rows, SQL ${sqlRows}`);
      const ratio = viaGraphql / viaSql;
      console.log(
        `${k.name.padEnd(36)} ${String(rows).padStart(6)} ${viaGraphql.toFixed(0).padStart(9)} ${viaSql.toFixed(0).padStart(9)} ${ratio.toFixed(2).padStart(6)}${ratio > 2 ? '  over target' : ''}`,
      );
    }
  } finally {
    await c.end();
  }
} finally {
  if (server && server.exitCode === null) {
    await new Promise<void>((resolve) => {
      server!.once('exit', () => resolve());
      server!.kill('SIGTERM');
    });
  }
  await database.drop();
}
