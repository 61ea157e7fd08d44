import type { Failures, Sample, SoakResult } from './run.js';
import { floor, signed, trend, verdict, type Limit, type Point } from './summary.js';
import { EVENTS_PER_REQUEST } from './traffic.js';

/**
 * The slopes under which a run counts as steady, judged on the floors (summary.ts `floor`) of heap and RSS. A leak
 * of 10 bytes per event at 500 events/s is 18 MB/h, so the heap's limit catches a leak of about that size; RSS
 * moves with the allocator and (on PGlite) the database's own caches, so its limit is looser. PostgreSQL's memory is printed but not judged: its backends touch more of
 * the shared buffers as the tables grow, which reads as growth up to `shared_buffers` and is the cache, not a leak.
 */
const LIMITS = { heapMB: 16, rssMB: 64, lagMs: 5 };
/** Under this much measured time a slope per hour is an extrapolation: read it with its standard error. */
const SHORT_SECONDS = 600;
/** The window whose lowest sample is a floor point: several collections at the default rate. */
const FLOOR_SECONDS = 60;

const MB = 1024 * 1024;
const fixed = (value: number, decimals = 1) => (Number.isNaN(value) ? 'n/a' : value.toFixed(decimals));

export function failedCount(f: Failures): number {
  let n = f.timeouts + f.broken;
  for (const count of f.byStatus.values()) n += count;
  return n;
}

function describeFailures(f: Failures): string {
  const statuses = [...f.byStatus].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  const non2xx = failedCount(f) - f.timeouts - f.broken;
  return `non-2xx ${non2xx}${statuses.length ? ` (${statuses.join(', ')})` : ''}, timeouts ${f.timeouts}, connection errors ${f.broken}`;
}

/** One progress line per sample, for a run of half an hour. */
export function sampleLine(name: string, s: Sample): string {
  const postgres = Number.isNaN(s.postgres) ? '' : `  pg ${fixed(s.postgres / MB, 0)} MB`;
  return (
    `${name} ${s.t.toFixed(0).padStart(5)} s  rss ${fixed(s.serverRss / MB, 0)} MB  heap ${fixed(s.heapUsed / MB)} MB  ` +
    `lag p99 ${fixed(s.lagP99 * 1000)} ms${postgres}  ${(s.requests / s.interval).toFixed(0)} req/s  ` +
    `p50 ${fixed(s.p50)} ms  p99 ${fixed(s.p99)} ms  failed ${failedCount(s.failures)}`
  );
}

/** The summary of one run: start, end and slope per hour of each series after the warm-up, totals and a verdict. */
export function summary(result: SoakResult): string {
  const { options, samples } = result;
  const series = (pick: (s: Sample) => number, scale: number): Point[] => samples.map((s) => ({ t: s.t, value: pick(s) / scale }));
  const lowest = (points: Point[]) => floor(points, options.warmup, FLOOR_SECONDS);
  const rss = series((s) => s.serverRss, MB);
  const heap = series((s) => s.heapUsed, MB);
  const rows = [
    { label: 'server RSS (MB)', points: rss },
    { label: `  floor, min per ${FLOOR_SECONDS} s`, points: lowest(rss) },
    { label: 'V8 heap used (MB)', points: heap },
    { label: `  floor, min per ${FLOOR_SECONDS} s`, points: lowest(heap) },
    { label: 'event-loop lag p99 (ms)', points: series((s) => s.lagP99, 1e-3) },
    ...(options.postmaster === undefined ? [] : [{ label: 'PostgreSQL PSS (MB)', points: series((s) => s.postgres, MB) }]),
    { label: 'latency p50 (ms)', points: series((s) => s.p50, 1) },
    { label: 'latency p99 (ms)', points: series((s) => s.p99, 1) },
  ].map((row) => ({ ...row, trend: trend(row.points, options.warmup) }));
  const [, rssFloor, , heapFloor, lag] = rows.map((r) => r.trend);
  const limits: Limit[] = [
    { label: 'heap floor', unit: 'MB', trend: heapFloor!, maxPerHour: LIMITS.heapMB },
    { label: 'RSS floor', unit: 'MB', trend: rssFloor!, maxPerHour: LIMITS.rssMB },
    { label: 'lag p99', unit: 'ms', trend: lag!, maxPerHour: LIMITS.lagMs },
  ];
  const measured = samples.filter((s) => s.t >= options.warmup);
  const span = measured.length > 1 ? measured.at(-1)!.t - measured[0]!.t : 0;
  const cpu = (us: number) => (Number.isNaN(us) ? 'n/a' : us.toFixed(0));
  const lines = [
    `${result.target}: ${options.seconds} s at ${options.rate} events/s (${(options.rate / EVENTS_PER_REQUEST).toFixed(0)} requests/s); ` +
      `slopes from ${measured.length} samples over ${span.toFixed(0)} s after a ${options.warmup} s warm-up`,
    `${''.padEnd(24)} ${'start'.padStart(9)} ${'end'.padStart(9)} ${'slope/h'.padStart(11)} ${'± s.e.'.padStart(10)}`,
    ...rows.map(
      ({ label, trend: t }) =>
        `${label.padEnd(24)} ${fixed(t.start).padStart(9)} ${fixed(t.end).padStart(9)} ${signed(t.perHour).padStart(11)} ${fixed(t.stderrPerHour).padStart(10)}`,
    ),
    `requests ${result.requests.toLocaleString('en')} (${result.events.toLocaleString('en')} events answered 2xx); ` +
      `failed: ${describeFailures(result.failures)}`,
    `CPU per event after the warm-up (µs): server ${cpu(result.cpu.server)}` +
      `${options.postmaster === undefined ? '' : `, PostgreSQL ${cpu(result.cpu.postgres)}`}, generator ${cpu(result.cpu.generator)}`,
    `verdict: ${verdict(limits, failedCount(result.failures))}`,
  ];
  if (span < SHORT_SECONDS) lines.push(`(under ${SHORT_SECONDS / 60} min measured: the slopes are extrapolations, read them with their standard error)`);
  return lines.join('\n');
}
