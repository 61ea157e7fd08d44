import { summary, sampleLine } from './soak/report.js';
import { soak } from './soak/run.js';
import { postmasterPid, startVigil } from './targets.js';

/**
 * Soak: Vigil on PGlite, then on PostgreSQL (when VIGIL_TEST_DATABASE_URL is set — `pnpm soak` starts a throwaway
 * server), each driven at a steady rate for a long time while its memory, event-loop lag, latency and failures are
 * sampled; prints each run's slopes per hour after a warm-up and a verdict. What grows slowly (a leak, a cache
 * without bound, a table scanned in full) is invisible in a ten-second benchmark and plain over half an hour.
 * Options (env): BENCH_SOAK_MINUTES (10), BENCH_SOAK_RATE (500 events/s), BENCH_SOAK_SAMPLE_SECONDS (5),
 * BENCH_SOAK_WARMUP_SECONDS (60, or a fifth of a shorter run), BENCH_SOAK_DATABASES (pglite,postgres).
 */
const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got ${process.env[name]}`);
  return value;
};
const seconds = positive('BENCH_SOAK_MINUTES', 10) * 60;
const rate = positive('BENCH_SOAK_RATE', 500);
const sampleSeconds = positive('BENCH_SOAK_SAMPLE_SECONDS', 5);
const warmup = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? Math.min(60, seconds / 5));
if (!(warmup >= 0 && warmup < seconds)) throw new Error(`BENCH_SOAK_WARMUP_SECONDS must be at least 0 and under the run's ${seconds} s`);
const databases = (process.env.BENCH_SOAK_DATABASES ?? 'pglite,postgres').split(',').map((d) => d.trim());
for (const d of databases) if (d !== 'pglite' && d !== 'postgres') throw new Error(`BENCH_SOAK_DATABASES: unknown database ${d}`);

for (const database of databases as ('pglite' | 'postgres')[]) {
  if (database === 'postgres' && !process.env.VIGIL_TEST_DATABASE_URL) {
    console.warn('VIGIL_TEST_DATABASE_URL not set: PostgreSQL skipped (use `pnpm soak`).');
    continue;
  }
  // One run at a time: a Vigil left idle still checkpoints and vacuums, which must not land on another's figures.
  const target = await startVigil(database);
  try {
    const postmaster = database === 'postgres' ? await postmasterPid() : undefined;
    let printed = 0;
    console.warn(`${target.name}: ${seconds} s at ${rate} events/s, a sample every ${sampleSeconds} s`);
    const result = await soak(target, {
      rate,
      seconds,
      warmup,
      sampleSeconds,
      postmaster,
      // A progress line a minute (and the last), for a run of half an hour.
      onSample: (s) => {
        if (s.t - printed >= 60 || s.t >= seconds) {
          printed = s.t;
          console.warn(sampleLine(target.name, s));
        }
      },
    });
    // Printed as soon as it is known: a run of half an hour must not be lost to a failure of the next one.
    console.log(`\n${summary(result)}`);
  } finally {
    await target.stop();
  }
}
