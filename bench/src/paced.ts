import http from 'node:http';
import { eventBody } from './bodies.js';
import type { Target } from './targets.js';

export interface PacedResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/**
 * Open-loop load at a constant arrival rate: request n is due at start + n / rate and is sent then, whether or not
 * earlier ones were answered, over as many keep-alive connections as that takes (up to 512; beyond that requests
 * queue in the agent, still timed from their due time). Latency is measured from the moment a request was due, so
 * a stall counts against every request that should have gone out during it. Percentiles are of 200 answers;
 * anything else (another status, a connection error, no answer within 30 s) counts as an error.
 *
 * autocannon's `overallRate` is not this: each connection sends its whole per-second quota back to back at the
 * start of every second, so "1,000 events/s" over 32 connections is a burst of 1,000 at full speed, then silence.
 */
export async function paced(target: Target, options: { rate: number; seconds: number; firstBody: number }): Promise<PacedResult> {
  const url = new URL(`${target.url}/events`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    let done = 0;
    const finisher = (due: number) => {
      let finished = false;
      return (ok: boolean) => {
        if (finished) return;
        finished = true;
        if (ok) latencies.push(performance.now() - due);
        else errors++;
        if (++done === total) resolve();
      };
    };
    const send = (n: number, due: number) => {
      const finish = finisher(due);
      const body = eventBody(options.firstBody + n);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${target.key}`, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => finish(res.statusCode === 200));
          res.on('error', () => finish(false));
          res.on('aborted', () => finish(false));
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', () => finish(false));
      req.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(sent, start + sent++ * interval);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    tick();
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors };
}
