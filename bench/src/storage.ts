import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { postEvents } from './bodies.js';
import { HISTORY_BEHAVIORS } from './history-behaviors.js';
import { freePort, throwawayDatabase, waitHealthy } from './targets.js';

/**
 * Storage benchmark: what a million events cost on disk. Vigil on PostgreSQL with the history benchmark's 5
 * behaviors answers BENCH_STORAGE_SAMPLE (20,000) real events over HTTP, so every row is what ingestion writes
 * (properties, the stored answer, idempotency keys, behavior points); those rows are then copied in SQL, each copy
 * a second apart in the same month with its own ids and keys, up to BENCH_STORAGE_EVENTS (1,000,000). Prints
 * `vigil stats`. Run with `pnpm storage` (starts a throwaway PostgreSQL).
 */
const CLI = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const sample = Number(process.env.BENCH_STORAGE_SAMPLE ?? 20_000);
const target = Number(process.env.BENCH_STORAGE_EVENTS ?? 1_000_000);
if (!process.env.VIGIL_TEST_DATABASE_URL) throw new Error('VIGIL_TEST_DATABASE_URL is not set: run `pnpm storage`, which starts PostgreSQL');

const database = await throwawayDatabase('vigil_storage');
const configPath = join(mkdtempSync(join(tmpdir(), 'vigil-storage-')), 'vigil.json');
writeFileSync(configPath, JSON.stringify({ behaviors: HISTORY_BEHAVIORS }));
const env = { ...process.env, DATABASE_URL: database.url, VIGIL_CONFIG: configPath, VIGIL_RATE_LIMIT_RPS: '0', VIGIL_LOG_LEVEL: 'warn' };

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vigil ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
};

async function answerSample(key: string): Promise<void> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(url, child);
    let n = 0;
    const r = await autocannon({
      url: `${url}/events`,
      connections: 16,
      amount: sample,
      ...postEvents(key, () => n++),
    });
    if (r.non2xx + r.errors > 0) throw new Error(`${r.non2xx + r.errors} events were not answered 200`);
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

/** Copies of the answered rows, shifted back a second per copy (same month, same partition), with fresh ids and keys. */
async function copyUp(): Promise<void> {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    const copies = Math.ceil(target / sample) - 1;
    await c.query(
      `INSERT INTO events SELECT id || '_' || c, key_id, idempotency_key || '_' || c, name, identity, device_id, handprint_id,
              session_id, ip, user_agent, properties, tags, risk_score, response, occurred_at - c * interval '1 second', received_at
       FROM events, generate_series(1, $1::int) AS c`,
      [copies],
    );
    await c.query(
      `INSERT INTO event_keys SELECT key_id, idempotency_key || '_' || c, event_id || '_' || c, occurred_at - c * interval '1 second'
       FROM event_keys, generate_series(1, $1::int) AS c`,
      [copies],
    );
    await c.query(
      `INSERT INTO behavior_points SELECT behavior_id, group_key, at - c * 1000, value, item FROM behavior_points, generate_series(1, $1::int) AS c`,
      [copies],
    );
    await c.query('VACUUM ANALYZE');
  } finally {
    await c.end();
  }
}

try {
  const { key } = JSON.parse(cli(['keys', 'create', '--kind', 'write', '--name', 'storage', '--json'])) as { key: string };
  await answerSample(key);
  console.log(`${sample} events answered over HTTP:\n${cli(['stats'])}`);
  await copyUp();
  console.log(`copied up to ${target} events (the 5 behaviors' points with them; buckets are per group and time, not per event):\n${cli(['stats'])}`);
} finally {
  await database.drop();
}
