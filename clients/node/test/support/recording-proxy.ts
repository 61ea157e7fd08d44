import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  status: number;
  responseHeaders: Record<string, string>;
  response: any;
  /** ms epoch when the request arrived and when the answer was sent. */
  receivedAt: number;
  answeredAt: number;
}

export interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ProxyOptions {
  /** Where requests are forwarded: the real Vigil server. */
  target: string;
  /** Waits this long before forwarding each request (a slow network or service). */
  delayMs?: number;
  /** Answers a request itself instead of forwarding it (a real 429/503 on the wire). */
  intercept?: (request: { method: string; path: string; body: any; index: number }) => CannedAnswer | undefined;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/**
 * A real HTTP server in front of the real Vigil server: forwards every request and records what
 * went through, so tests can see what the library sent and what Vigil answered.
 */
export async function startProxy(options: ProxyOptions): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  let index = 0;
  const server: Server = createServer((req, res) => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString();
      const body = parse(raw);
      const path = req.url ?? '/';
      const method = req.method ?? 'GET';
      const canned = options.intercept?.({ method, path, body, index: index++ });
      let status: number;
      let headers: Record<string, string>;
      let text: string;
      if (canned !== undefined) {
        status = canned.status;
        headers = { 'content-type': 'application/problem+json', ...canned.headers };
        text = JSON.stringify(canned.body ?? { title: 'canned', status: canned.status });
      } else {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        const forwarded = Object.fromEntries(
          Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)),
        ) as Record<string, string>;
        try {
          const upstream = await fetch(`${options.target}${path}`, {
            method,
            headers: forwarded,
            body: method === 'GET' || method === 'HEAD' ? undefined : raw,
          });
          status = upstream.status;
          text = await upstream.text();
          headers = {};
          upstream.headers.forEach((value, key) => {
            if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(key)) headers[key] = value;
          });
        } catch (error) {
          status = 502;
          headers = { 'content-type': 'text/plain' };
          text = String(error);
        }
      }
      exchanges.push({ method, path, headers: req.headers, body, status, responseHeaders: headers, response: parse(text), receivedAt, answeredAt: Date.now() });
      if (res.destroyed) return;
      res.writeHead(status, headers);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Events of all batch requests that Vigil answered 200, paired with their per-item results. */
export function deliveredBatchItems(exchanges: Exchange[]): { event: any; result: any }[] {
  return exchanges
    .filter((x) => x.path === '/events/batch' && x.status === 200)
    .flatMap((x) => (x.body.events as any[]).map((event, i) => ({ event, result: x.response.results[i] })));
}
