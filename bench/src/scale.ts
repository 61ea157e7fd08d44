import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { postEvents } from './bodies.js';
import { cpuSecondsOf, machineBusySeconds, postgresSecondsOf, postgresTotal } from './cpu.js';
import { createWriteKey, postmasterPid, serveVigil, throwawayDatabase, type Target } from './targets.js';
import { metricValue } from './soak/scrape.js';

/**
 * Scale benchmark: 1, 2 and 4 `vigil serve` processes on one PostgreSQL (a fresh database for each count), driven
 * by one autocannon whose connections go round robin over the processes, as behind a load balancer. Prints
 * events/s in all and of each process (from its `vigil_events_ingested_total`), the ratio to one process, and CPU:
 * per event of each Vigil process, of PostgreSQL and of the generator, and how many cores they and the whole
 * machine kept busy, so the run says whether the machine or Vigil was the limit. Run with `pnpm scale` (starts a
 * throwaway PostgreSQL). Env: BENCH_NODES (1,2,4), BENCH_SECONDS (10), BENCH_CONNECTIONS (64), BENCH_ROUNDS (3),
 * BENCH_WARMUP_SECONDS (15, as `load`: each process compiles its own code, so a short warm-up weighs on N processes
 * N times).
 */
const nodeCounts = (process.env.BENCH_NODES ?? '1,2,4').split(',').map(Number);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
if (!process.env.VIGIL_TEST_DATABASE_URL) throw new Error('VIGIL_TEST_DATABASE_URL is not set: run `pnpm scale`, which starts PostgreSQL');

interface Round {
  rps: number;
  p99: number;
  errors: number;
  /** Events/s stored by each process. */
  perNode: number[];
  /** µs of CPU per event (of all events) of each Vigil process. */
  nodeCpu: number[];
  postgresCpu: number;
  generatorCpu: number;
  /** Cores kept busy on average: by the measured processes, and by the whole machine (other work included). */
  partsCores: number;
  machineCores: number;
}

let counter = 0;

/** The events a node has stored since it started (0 until its counter is first written). */
async function ingested(node: Target): Promise<number> {
  const count = metricValue(await (await fetch(`${node.url}/metrics`)).text(), 'vigil_events_ingested_total');
  return Number.isNaN(count) ? 0 : count;
}

async function drive(nodes: Target[], duration: number, postmaster: number | undefined): Promise<Round> {
  const pgSeconds = () => postgresTotal(postgresSecondsOf(postmaster));
  const generatorSeconds = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const before = {
    stored: await Promise.all(nodes.map(ingested)),
    nodes: nodes.map((n) => cpuSecondsOf(n.pid!)),
    postgres: pgSeconds(),
    generator: generatorSeconds(),
    machine: machineBusySeconds(),
  };
  const started = process.hrtime.bigint();
  const result = await autocannon({
    // autocannon spreads its connections round robin over several URLs; its types only admit one.
    url: nodes.map((n) => `${n.url}/events`) as unknown as string,
    connections,
    duration,
    ...postEvents(nodes[0]!.key, () => counter++),
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const stored = await Promise.all(nodes.map(ingested));
  const nodeSeconds = nodes.map((n, i) => cpuSecondsOf(n.pid!) - before.nodes[i]!);
  const postgres = pgSeconds() - before.postgres;
  const generator = generatorSeconds() - before.generator;
  const events = result.requests.total;
  const us = (s: number) => (events > 0 ? (s * 1e6) / events : NaN);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    perNode: stored.map((n, i) => (n - before.stored[i]!) / wall),
    nodeCpu: nodeSeconds.map(us),
    postgresCpu: us(postgres),
    generatorCpu: us(generator),
    partsCores: (nodeSeconds.reduce((a, b) => a + b, 0) + postgres + generator) / wall,
    machineCores: (machineBusySeconds() - before.machine) / wall,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** The round with the median events/s, so every figure printed for a count comes from one and the same run. */
const medianRound = (results: Round[]) => [...results].sort((a, b) => a.rps - b.rps)[(results.length - 1) >> 1]!;

const postmaster = await postmasterPid();
const measured: { nodes: number; rounds: Round[] }[] = [];
// One count at a time, each on a fresh database: idle processes still checkpoint and vacuum, and a store grown by
// the previous count must not slow the next.
for (const count of nodeCounts) {
  const database = await throwawayDatabase(`vigil_scale_${count}`);
  const env = { DATABASE_URL: database.url };
  const { key } = createWriteKey(env);
  const nodes: Target[] = [];
  try {
    for (let i = 0; i < count; i++) nodes.push(await serveVigil(`vigil ${i + 1}/${count}`, env, key));
    await drive(nodes, warmup, postmaster); // warm-up: JIT, pools, caches
    const results: Round[] = [];
    for (let round = 1; round <= rounds; round++) {
      results.push(await drive(nodes, seconds, postmaster));
      console.warn(`${count} process${count > 1 ? 'es' : ''}: round ${round}/${rounds} done`);
    }
    measured.push({ nodes: count, rounds: results });
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await database.drop();
  }
}

const cores = availableParallelism();
const one = measured.find((m) => m.nodes === 1);
const baseline = one ? median(one.rounds.map((r) => r.rps)) : undefined;
console.log(`\nVigil processes on one PostgreSQL (${connections} connections round robin, ${seconds} s; median of ${rounds} rounds; ${cores} cores)`);
console.log(
  `${'processes'.padEnd(10)} ${'events/s'.padStart(9)} ${'÷ one'.padStart(6)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)}  events/s of each process`,
);
for (const m of measured) {
  const r = medianRound(m.rounds);
  const rps = median(m.rounds.map((x) => x.rps));
  const ratio = baseline ? (rps / baseline).toFixed(2) : '–';
  const errors = m.rounds.reduce((n, x) => n + x.errors, 0);
  console.log(
    `${String(m.nodes).padEnd(10)} ${rps.toFixed(0).padStart(9)} ${ratio.padStart(6)} ${r.p99.toFixed(1).padStart(7)} ${String(errors).padStart(7)}  ${r.perNode.map((x) => x.toFixed(0)).join(' / ')}`,
  );
}
console.log(`\nCPU per event (µs, of the median round) and cores kept busy: by these parts, and by the whole machine (other work included)`);
console.log(
  `${'processes'.padEnd(10)} ${'each Vigil'.padStart(22)} ${'all Vigil'.padStart(10)} ${'PostgreSQL'.padStart(11)} ${'generator'.padStart(10)} ${'parts'.padStart(7)} ${'machine'.padStart(8)}`,
);
for (const m of measured) {
  const r = medianRound(m.rounds);
  const all = r.nodeCpu.reduce((a, b) => a + b, 0);
  console.log(
    `${String(m.nodes).padEnd(10)} ${r.nodeCpu
      .map((x) => x.toFixed(0))
      .join('/')
      .padStart(
        22,
      )} ${all.toFixed(0).padStart(10)} ${r.postgresCpu.toFixed(0).padStart(11)} ${r.generatorCpu.toFixed(0).padStart(10)} ${r.partsCores.toFixed(2).padStart(7)} ${r.machineCores.toFixed(2).padStart(8)}`,
  );
}
console.log(
  `\nWhen "machine" is near ${cores} cores the machine is the limit: more processes only share the same cores, and a ratio ` +
    'below the number of processes says nothing about Vigil. CPU per event that stays flat as processes are added means ' +
    'Vigil itself scales; rising PostgreSQL CPU per event would be contention in the database.',
);
