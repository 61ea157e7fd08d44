import { perEvent, sampleCpu, type CpuPerEvent, type CpuSample } from '../cpu.js';
import { postgresMemory, rssOf } from '../memory.js';
import { openLoop, percentile, requestBytes, type Outcome } from '../paced.js';
import type { Target } from '../targets.js';
import { scrape } from './scrape.js';
import { EVENTS_PER_REQUEST, eventsIn, soakRequest } from './traffic.js';

/** Requests that failed: by status other than 2xx, without an answer in 30 s, or on a broken connection. */
export interface Failures {
  byStatus: Map<number, number>;
  timeouts: number;
  broken: number;
}

/** What one sample interval saw, and the state of the processes at its end. */
export interface Sample {
  /** Seconds since the load started, and since the sample before. */
  t: number;
  interval: number;
  /** Server's resident set size, bytes (NaN: the process is gone). */
  serverRss: number;
  /** From the server's /metrics: V8 heap in use (bytes) and event-loop lag p99 over the interval (seconds). */
  heapUsed: number;
  lagP99: number;
  /** Memory of the PostgreSQL server (see memory.ts), bytes; NaN on PGlite. */
  postgres: number;
  /** Requests that ended in the interval. */
  requests: number;
  /** Latency of the 2xx answers in the interval, ms from each request's due time. */
  p50: number;
  p99: number;
  failures: Failures;
}

export interface SoakOptions {
  /** Events per second (requests per second are fewer: some carry a batch, traffic.ts). */
  rate: number;
  seconds: number;
  /** Seconds left out of the slopes and of CPU per event. */
  warmup: number;
  sampleSeconds: number;
  /** The PostgreSQL server's postmaster, for its memory and CPU; none on PGlite. */
  postmaster?: number;
  onSample?(sample: Sample): void;
}

export interface SoakResult {
  target: string;
  options: SoakOptions;
  samples: Sample[];
  requests: number;
  /** Events in 2xx answers. */
  events: number;
  failures: Failures;
  /** CPU per event after the warm-up. */
  cpu: CpuPerEvent;
}

const noFailures = (): Failures => ({ byStatus: new Map(), timeouts: 0, broken: 0 });

/** Outcomes as they arrive: per interval (taken at each sample) and in total. */
class Tally {
  private latencies: number[] = [];
  private requests = 0;
  private failures = noFailures();
  readonly total = { requests: 0, events: 0, failures: noFailures() };

  add(outcome: Outcome, latency: number, events: number): void {
    this.requests++;
    this.total.requests++;
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
      this.latencies.push(latency);
      this.total.events += events;
      return;
    }
    for (const f of [this.failures, this.total.failures]) {
      if (outcome === 'timeout') f.timeouts++;
      else if (outcome === 'broken') f.broken++;
      else f.byStatus.set(outcome, (f.byStatus.get(outcome) ?? 0) + 1);
    }
  }

  /** This interval's figures; the next interval starts empty. */
  take(): Pick<Sample, 'requests' | 'p50' | 'p99' | 'failures'> {
    const sorted = Float64Array.from(this.latencies).sort();
    const taken = { requests: this.requests, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), failures: this.failures };
    this.latencies = [];
    this.requests = 0;
    this.failures = noFailures();
    return taken;
  }
}

/**
 * Drives `target` at a steady rate for `seconds` (open loop, paced.ts) with the soak's traffic (traffic.ts), and
 * samples the server, PostgreSQL and the answers every `sampleSeconds` while it runs, plus once when the last
 * request has ended. Bounded: the load has a fixed number of requests, each of which ends (paced.ts), and sampling
 * stops with it.
 */
export async function soak(target: Target, options: SoakOptions): Promise<SoakResult> {
  const origin = new URL(target.url);
  const paths = { '/events': new URL('/events', origin), '/events/batch': new URL('/events/batch', origin) };
  const requestRate = options.rate / EVENTS_PER_REQUEST;
  const tally = new Tally();
  const start = performance.now();
  let finished = false;
  const load = openLoop({
    url: origin,
    rate: requestRate,
    total: Math.round(requestRate * options.seconds),
    request: (n) => {
      const r = soakRequest(n);
      return requestBytes(paths[r.path], target.key, r.body);
    },
    answered: (n, latency, outcome) => tally.add(outcome, latency, eventsIn(n)),
  }).then(() => {
    finished = true;
  });
  // Until the next sample is due, or the load ends. None is due at or after the last request was sent: the last
  // sample is taken when the last answer is in, and one just before it would cover a sliver of an interval.
  const sendingEnds = start + options.seconds * 1000;
  const until = (due: number) =>
    new Promise<void>((resolve) => {
      const timer = due < sendingEnds ? setTimeout(resolve, Math.max(0, due - performance.now())) : undefined;
      void load.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  const cpu = () => sampleCpu(target.pid, options.postmaster);

  const samples: Sample[] = [];
  let afterWarmup: { cpu: CpuSample; events: number } | undefined;
  // The last sample is one taken after the load ended: it holds every answer the ones before did not.
  for (let i = 1, final = false; !final; i++) {
    await until(start + i * options.sampleSeconds * 1000);
    final = finished;
    const t = (performance.now() - start) / 1000;
    const interval = tally.take();
    const metrics = await scrape(target.url);
    const sample: Sample = {
      t,
      interval: t - (samples.at(-1)?.t ?? 0),
      serverRss: target.pid === undefined ? NaN : rssOf(target.pid),
      postgres: options.postmaster === undefined ? NaN : postgresMemory(options.postmaster),
      ...metrics,
      ...interval,
    };
    samples.push(sample);
    options.onSample?.(sample);
    if (!afterWarmup && t >= options.warmup) afterWarmup = { cpu: cpu(), events: tally.total.events };
  }
  await load;
  const end = cpu();
  return {
    target: target.name,
    options,
    samples,
    ...tally.total,
    cpu: afterWarmup ? perEvent(afterWarmup.cpu, end, tally.total.events - afterWarmup.events) : perEvent(end, end, 0),
  };
}
