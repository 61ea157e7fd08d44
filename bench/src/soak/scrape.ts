/**
 * What the server says of itself on GET /metrics: prom-client's default Node metrics, which Vigil registers with
 * the prefix `vigil_` (server/src/http/metrics.ts). The event-loop delay histogram behind the lag percentiles is
 * reset at every scrape, so a scrape's p99 is of the time since the one before: one sample interval.
 */
export interface ServerMetrics {
  /** V8 heap in use, bytes. */
  heapUsed: number;
  /** p99 of the event-loop delay since the last scrape, seconds. */
  lagP99: number;
}

const SCRAPE_TIMEOUT_MS = 5_000;

/** The value of an unlabelled sample in Prometheus text, or NaN if it is not there. */
export function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.slice(name.length + 1).split(' ')[0]);
}

/** The server's heap and event-loop lag; NaN for what it did not answer within 5 s. */
export async function scrape(url: string): Promise<ServerMetrics> {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) })).text();
    return {
      heapUsed: metricValue(text, 'vigil_nodejs_heap_size_used_bytes'),
      lagP99: metricValue(text, 'vigil_nodejs_eventloop_lag_p99_seconds'),
    };
  } catch {
    return { heapUsed: NaN, lagP99: NaN };
  }
}
