import net from 'node:net';
import { eventBody } from './bodies.js';
import { LATE_MS, type Late } from './bursts.js';
import type { Target } from './targets.js';

export interface PacedResult {
  rps: number;
  /** Percentiles of the requests due after the settling seconds: the steady state. */
  p50: number;
  p99: number;
  /** p99 of every request, the settling seconds included: how the target met the change of load. */
  p99Whole: number;
  errors: number;
  /** Requests sent, the settling seconds' included. */
  sent: number;
  /** The steady requests answered (200) later than LATE_MS, for bursts.ts; errors are counted apart. */
  late: Late[];
}

export const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

const MAX_CONNECTIONS = 512;
const ANSWER_TIMEOUT_MS = 30_000;
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * How a request ended: its HTTP status, no answer within 30 s (`timeout`), or a connection that failed or closed
 * under it, or sent what is not an HTTP answer with a Content-Length (`broken`).
 */
export type Outcome = number | 'timeout' | 'broken';

export interface OpenLoopOptions {
  /** Where to connect (host and port); each request names its own path. */
  url: URL;
  /** Requests per second. */
  rate: number;
  /** Requests in all: the run ends when every one has an outcome. */
  total: number;
  /** The bytes of request n (see `requestBytes`), asked for in order of n. */
  request(n: number): Buffer;
  /** Called once per request, with its latency in ms counted from the moment it was due. */
  answered(n: number, latency: number, outcome: Outcome): void;
}

/**
 * Open-loop load at a constant arrival rate: request n is due at start + n / rate and is sent then, whether or not
 * earlier ones were answered, over as many keep-alive connections as that takes (up to 512; beyond that requests
 * wait for a free connection, still timed from their due time). Latency is measured from the moment a request was
 * due, so a stall counts against every request that should have gone out during it. Every request ends (an answer,
 * a broken connection or the 30 s timeout), so the run ends by itself. Resolves with the seconds it took.
 *
 * autocannon's `overallRate` is not this: each connection sends its whole per-second quota back to back at the
 * start of every second, so "1,000 events/s" over 32 connections is a burst of 1,000 at full speed, then silence.
 *
 * The generator shares the machine with what it measures, so it does as little as it can per request: requests are
 * written as raw bytes, and an answer is read only as far as its status line and Content-Length (both Vigil and the
 * baseline send one). node:http's client cost several times more CPU per request, which on a small machine was
 * taken from the server under test and counted as its latency.
 */
export async function openLoop(options: OpenLoopOptions): Promise<number> {
  const { url, total } = options;
  const interval = 1000 / options.rate;
  let done = 0;
  let sent = 0;
  const idle: Connection[] = [];
  const waiting: Due[] = [];
  let open = 0;
  let resolveAll: () => void;
  const finished = new Promise<void>((resolve) => (resolveAll = resolve));
  if (total === 0) return 0;

  const record = (due: Due, outcome: Outcome) => {
    options.answered(due.n, performance.now() - due.at, outcome);
    if (++done === total) resolveAll();
  };
  const release = (connection: Connection) => {
    const next = waiting.shift();
    if (next) connection.send(next);
    else idle.push(connection);
  };
  // A closed connection's place goes to the next waiting request, so waiting requests never outlive every connection.
  const closed = () => {
    open--;
    const next = waiting.shift();
    if (next) dispatch(next);
  };
  const dispatch = (due: Due): void => {
    let connection = idle.pop();
    while (connection?.broken) connection = idle.pop();
    if (connection) return connection.send(due);
    if (open < MAX_CONNECTIONS) {
      open++;
      return new Connection(url, record, release, closed).send(due);
    }
    waiting.push(due);
  };

  const start = performance.now();
  const tick = () => {
    const now = performance.now();
    for (; sent < total && start + sent * interval <= now; sent++) {
      dispatch({ n: sent, at: start + sent * interval, bytes: options.request(sent) });
    }
    if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
  };
  tick();
  await finished;
  for (const c of idle) c.close();
  return (performance.now() - start) / 1000;
}

/**
 * The steady-rate measurement of load.ts: `openLoop` with bodies from bodies.ts, built before the clock starts.
 * Percentiles are of 200 answers; anything else counts as an error.
 *
 * The first `settle` seconds run at the same rate but their requests are left out of p50/p99 (wrk2 calibrates the
 * same way): they measure how the target recovers from whatever ran before — here a run at full speed, whose
 * aftermath (a grown heap, dirty pages, connections being opened) lands on the first seconds. `p99Whole` keeps them.
 */
export async function paced(target: Target, options: { rate: number; seconds: number; settle: number; firstBody: number }): Promise<PacedResult> {
  const url = new URL(`${target.url}/events`);
  const settling = Math.round(options.rate * options.settle);
  const total = settling + Math.round(options.rate * options.seconds);
  const requests = Array.from({ length: total }, (_, n) => requestBytes(url, target.key, eventBody(options.firstBody + n)));
  /** Latency of each answered request, by request number (NaN: not answered). */
  const latencies = new Float64Array(total).fill(NaN);
  const late: Late[] = [];
  let errors = 0;
  const elapsed = await openLoop({
    url,
    rate: options.rate,
    total,
    request: (n) => requests[n]!,
    answered: (n, latency, outcome) => {
      if (outcome === 200) latencies[n] = latency;
      else errors++;
      // Answered now, so due `latency` ms ago.
      if (outcome === 200 && n >= settling && latency > LATE_MS) late.push({ at: performance.now() - latency, ms: latency });
    },
  });
  const answered = (from: number) =>
    latencies
      .subarray(from)
      .filter((l) => !Number.isNaN(l))
      .sort();
  const steady = answered(settling);
  const all = answered(0);
  return {
    rps: all.length / elapsed,
    p50: percentile(steady, 0.5),
    p99: percentile(steady, 0.99),
    p99Whole: percentile(all, 0.99),
    errors,
    sent: total,
    late,
  };
}

/** A POST of `body` to url's path, as raw HTTP/1.1 bytes. */
export function requestBytes(url: URL, key: string, body: string): Buffer {
  const payload = Buffer.from(body);
  const head =
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
    `Authorization: Bearer ${key}\r\nContent-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), payload]);
}

/** A request that is due: its number, the moment it was due (performance.now()) and its bytes. */
interface Due {
  n: number;
  at: number;
  bytes: Buffer;
}

/** One keep-alive connection carrying one request at a time. A broken one fails its request and is closed. */
class Connection {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  /** The request in flight, if any. */
  private due: Due | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Closed by either side: never handed a request again. */
  broken = false;

  constructor(
    url: URL,
    private readonly record: (due: Due, outcome: Outcome) => void,
    private readonly release: (c: Connection) => void,
    private readonly onClose: () => void,
  ) {
    this.socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', () => this.fail('broken'));
    this.socket.on('close', () => this.fail('broken'));
  }

  send(due: Due): void {
    this.due = due;
    this.timer = setTimeout(() => this.fail('timeout'), ANSWER_TIMEOUT_MS);
    this.socket.write(due.bytes);
  }

  close(): void {
    this.fail('broken');
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf(HEADER_END);
    if (headEnd < 0) return;
    const head = this.buffered.subarray(0, headEnd).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
    if (!length || !status) return this.fail('broken');
    const end = headEnd + HEADER_END.length + Number(length[1]);
    if (this.buffered.length < end) return;
    if (this.buffered.length > end || this.due === undefined) return this.fail('broken');
    this.buffered = Buffer.alloc(0);
    this.answered(Number(status[1]));
  }

  private answered(outcome: Outcome): void {
    clearTimeout(this.timer);
    const due = this.due!;
    this.due = undefined;
    this.record(due, outcome);
    if (!this.broken) this.release(this);
  }

  private fail(outcome: 'timeout' | 'broken'): void {
    if (this.broken) return;
    this.broken = true;
    this.socket.destroy();
    this.onClose();
    if (this.due !== undefined) this.answered(outcome);
  }
}
