import autocannon from 'autocannon';
import { eventBody } from './bodies.js';
import { paced } from './paced.js';
import { startBare, startVigil, type Target } from './targets.js';

/**
 * Load benchmark: Vigil (PGlite, and PostgreSQL when VIGIL_TEST_DATABASE_URL is set — `pnpm load:all` starts one)
 * and a bare Fastify baseline, driven in the same run with the same bodies. Prints events/s, p50/p99 and the ratio
 * Vigil ÷ bare (autocannon, closed loop), then p50/p99 at a steady 1,000 events/s (open loop, see paced.ts).
 * Options (env): BENCH_SECONDS (10), BENCH_CONNECTIONS (64), BENCH_RATE (1000).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const rate = Number(process.env.BENCH_RATE ?? 1000);

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

let counter = 0;

async function drive(target: Target, options: { duration: number; connections: number }): Promise<Result> {
  const result = await autocannon({
    url: `${target.url}/events`,
    method: 'POST',
    connections: options.connections,
    duration: options.duration,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.key}` },
    requests: [{ setupRequest: (req) => ({ ...req, body: eventBody(counter++) }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

function row(name: string, r: Result, ratio?: number): string {
  return [
    name.padEnd(18),
    r.rps.toFixed(0).padStart(9),
    r.p50.toFixed(1).padStart(8),
    r.p99.toFixed(1).padStart(8),
    String(r.errors).padStart(7),
    ratio === undefined ? '' : ratio.toFixed(2).padStart(8),
  ].join(' ');
}

async function measure(start: () => Promise<Target>): Promise<{ name: string; max: Result; fixed: Result }> {
  const target = await start();
  try {
    await drive(target, { duration: 3, connections }); // warm-up: JIT, pools, caches
    const max = await drive(target, { duration: seconds, connections });
    const fixed = await paced(target, { rate, seconds, firstBody: counter });
    counter += Math.round(rate * seconds);
    return { name: target.name, max, fixed };
  } finally {
    await target.stop();
  }
}

const runs = [await measure(startBare), await measure(() => startVigil('pglite'))];
if (process.env.VIGIL_TEST_DATABASE_URL) runs.push(await measure(() => startVigil('postgres')));
else console.warn('VIGIL_TEST_DATABASE_URL not set: PostgreSQL skipped (use `pnpm load:all`).');

const bare = runs[0]!;
console.log(`\nMax throughput (${connections} connections, ${seconds} s)`);
console.log(`${'target'.padEnd(18)} ${'events/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'÷ bare'.padStart(8)}`);
for (const r of runs) console.log(row(r.name, r.max, r.max.rps / bare.max.rps));
console.log(`\nSteady ${rate.toLocaleString('en')} events/s (open loop, latency from each request's due time, ${seconds} s)`);
console.log(`${'target'.padEnd(18)} ${'events/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`);
for (const r of runs) console.log(row(r.name, r.fixed));
