import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { postEvents } from './bodies.js';
import { perEvent, runQueueSeconds, sampleCpu, type CpuPerEvent } from './cpu.js';
import { paced } from './paced.js';
import { concerns, sourceMapLocator, type CpuProfile } from './profile/concerns.js';
import { PHASES, perfCanSample, startPerf, type Phase, type Phases } from './profile/postgres-phases.js';
import { postmasterPid, startFloor, startVigil, type Target } from './targets.js';
import { configureWal } from './wal.js';

/**
 * Where the CPU goes (`pnpm profile`): Vigil on PostgreSQL and the durable floor, each at full speed and at the
 * steady rate, with the server's main thread profiled by V8 (profile/preload.ts, by concern: Vigil's source
 * folders, fastify, the pg driver, Node's HTTP, socket writes, GC; profile/concerns.ts) and PostgreSQL sampled by
 * Linux's perf (by phase of a statement; profile/postgres-phases.ts). It prints the CPU of each per event, so that
 * Vigil ÷ floor in `load` can be read item by item. Options (env): BENCH_SECONDS (10), BENCH_CONNECTIONS (64),
 * BENCH_RATE (1000), BENCH_WARMUP_SECONDS (15), as `load` has them; BENCH_PROFILE_DIR, a folder to keep the profiles in (`<target>-<window>`:
 * 1 full speed, 2 steady; `.cpuprofile` opens in Chrome's DevTools, `.perf` in `perf report`), else they are deleted.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const rate = Number(process.env.BENCH_RATE ?? 1000);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
if (!process.env.VIGIL_TEST_DATABASE_URL) throw new Error('profile needs PostgreSQL: run it as `pnpm profile`');

const keep = process.env.BENCH_PROFILE_DIR;
if (keep) mkdirSync(keep, { recursive: true });
const dir = keep ?? mkdtempSync(join(tmpdir(), 'vigil-profile-'));
const preload = fileURLToPath(new URL('./profile/preload.js', import.meta.url));
const postmaster = await postmasterPid();
await configureWal();
const perfProblem = perfCanSample(dir);

interface Window {
  events: number;
  cpu: CpuPerEvent;
  /** Microseconds per event the server's main thread was ready to run and waited for a CPU; NaN where unknown. */
  waited: number;
  /** Microseconds of the main thread's profile by concern. */
  concerns: Map<string, number>;
  /** Shares of this run's PostgreSQL's samples, where perf could sample. */
  phases?: Phases;
}

let counter = 0;

/** `target` started with the profiler preloaded; the files it writes are `<dir>/<name>-<n>.cpuprofile`. */
async function withProfiler(name: string, start: () => Promise<Target>): Promise<Target> {
  const saved = { options: process.env.NODE_OPTIONS, file: process.env.BENCH_PROFILE_FILE };
  // As a file URL: no space or other character of the path can break NODE_OPTIONS apart.
  process.env.NODE_OPTIONS = `${saved.options ?? ''} --import ${pathToFileURL(preload).href}`.trim();
  process.env.BENCH_PROFILE_FILE = join(dir, name);
  try {
    return await start();
  } finally {
    for (const [key, value] of [
      ['NODE_OPTIONS', saved.options],
      ['BENCH_PROFILE_FILE', saved.file],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

async function profileFile(file: string): Promise<CpuProfile> {
  for (let i = 0; i < 300 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(file)) throw new Error(`The server wrote no profile in 30 s (${file}); its stderr says why`);
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** Events answered 200 of a window: a failed request must not count as an event and lower every figure. */
function answered(sent: number, failed: number): number {
  if (failed > 0) console.warn(`${failed} of ${sent} requests failed: the figures are per answered event`);
  return sent - failed;
}

function fullSpeed(target: Target, duration: number): Promise<number> {
  return autocannon({
    url: `${target.url}/events`,
    connections,
    duration,
    ...postEvents(target.key, () => counter++),
  }).then((result) => answered(result.requests.total, result.requests.total - result['2xx']));
}

async function steady(target: Target, duration: number): Promise<number> {
  const round = await paced(target, { rate, seconds: duration, settle: 0, firstBody: counter });
  counter += round.sent;
  return answered(round.sent, round.errors);
}

/** One measured window: `run` drives the target and says how many events it sent. */
async function measure(target: Target, name: string, window: number, run: () => Promise<number>): Promise<Window> {
  const perf = perfProblem === undefined ? startPerf(join(dir, `${name}-${window}.perf`)) : undefined;
  try {
    const before = sampleCpu(target.pid, postmaster);
    const waitedBefore = runQueueSeconds(target.pid) ?? NaN;
    process.kill(target.pid!, 'SIGUSR2');
    const events = await run();
    process.kill(target.pid!, 'SIGUSR2');
    const after = sampleCpu(target.pid, postmaster);
    const cpu = perEvent(before, after, events);
    const waited = (((runQueueSeconds(target.pid) ?? NaN) - waitedBefore) * 1e6) / events;
    // This server's processes only, those the CPU samples counted: other PostgreSQL servers on the machine are not
    // its cost. A backend that starts and ends inside the window is missed by both.
    const phases = await perf?.stop(new Set([...before.postgres.keys(), ...after.postgres.keys()]));
    const profile = await profileFile(join(dir, `${name}-${window}.cpuprofile`));
    return { events, cpu, waited, concerns: concerns(profile, sourceMapLocator()), phases };
  } finally {
    // A window that failed must not leave perf sampling the machine.
    perf?.kill();
  }
}

const columns: { title: string; window: Window }[] = [];
try {
  for (const [name, label, start] of [
    ['floor', 'floor', startFloor],
    ['vigil', 'Vigil', () => startVigil('postgres')],
  ] as const) {
    const target = await withProfiler(name, start);
    try {
      await fullSpeed(target, warmup); // warm-up: JIT, pools, caches (see load.ts)
      columns.push({ title: `${label} full`, window: await measure(target, name, 1, () => fullSpeed(target, seconds)) });
      await steady(target, 2); // the steady rate settles after the full-speed run (load.ts, BENCH_SETTLE_SECONDS)
      columns.push({ title: `${label} ${rate.toLocaleString('en')}/s`, window: await measure(target, name, 2, () => steady(target, seconds)) });
    } finally {
      await target.stop();
    }
    console.warn(`${label} profiled`);
  }
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

const cell = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–').padStart(14);
const header = (first: string) => console.log(`${first.padEnd(52)}${columns.map((c) => c.title.padStart(14)).join('')}`);
const table = (rows: string[], value: (w: Window, row: string) => number, digits = 1) => {
  for (const row of rows) console.log(`${row.padEnd(52)}${columns.map((c) => cell(value(c.window, row), digits)).join('')}`);
};

console.log(
  `\nServer, main thread: µs per event by concern, as V8's profiler sampled it every 1 ms, idle samples left out` +
    ` (full speed: ${connections} connections, ${seconds} s; steady: ${rate.toLocaleString('en')} events/s, ${seconds} s after` +
    ` 2 s to settle)`,
);
header('concern');
const sampled = (w: Window) => [...w.concerns.values()].reduce((sum, us) => sum + us, 0) / w.events;
const vigilFull = columns.find((c) => c.title === 'Vigil full')!.window;
const names = [...new Set(columns.flatMap((c) => [...c.window.concerns.keys()]))].sort(
  (a, b) => (vigilFull.concerns.get(b) ?? 0) - (vigilFull.concerns.get(a) ?? 0),
);
table(names, (w, row) => (w.concerns.get(row) ?? 0) / w.events);
table(['sampled, in all'], sampled);
// The profiler samples by the clock: a thread that waits for a CPU is sampled where it waits.
table(['of which waiting for a CPU (run queue, /proc)'], (w) => w.waited);
table(['main thread CPU, from /proc'], (w) => w.cpu.serverMain);
// Mostly the profilers' own cost: V8's signal interrupts the thread at every sample, idle or not, and its handler's
// time is in no sample; perf's interrupts are charged to whatever they interrupt. Measured without either at 1,000
// events/s, the main thread of either target used 40-80 µs less per event, with the same system time.
table(['CPU in no sample (mostly the profilers themselves)'], (w) => w.cpu.serverMain - (sampled(w) - w.waited));
table(["other threads (V8's GC and compiler helpers)"], (w) => w.cpu.server - w.cpu.serverMain);

if (columns.every((c) => c.window.phases && c.window.phases.samples > 0)) {
  console.log("\nPostgreSQL: µs of CPU per event by phase (perf's samples of this server's processes, as shares of its CPU from /proc, perf's own cost in it)");
  header('phase');
  table([...PHASES], (w, row) => (w.phases!.shares.get(row as Phase) ?? 0) * w.cpu.postgres);
  table(['total, from /proc'], (w) => w.cpu.postgres);
  table(["perf's samples of it"], (w) => w.phases!.samples, 0);
} else {
  console.log(`\nPostgreSQL by phase: not shown (${perfProblem ?? 'perf found no sample of its processes'})`);
  table(['PostgreSQL, from /proc'], (w) => w.cpu.postgres);
}
table(['generator (this process), from /proc'], (w) => w.cpu.generator);
