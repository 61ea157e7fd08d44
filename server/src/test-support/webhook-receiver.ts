import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers a request: a status and headers; by default 204. */
export type Answer = { status: number; headers?: Record<string, string> };

/** A real HTTP receiver on a loopback port that records every request and answers as the test says. */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Answers in order, one per request; once used up, 204. */
  answers: Answer[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Each request verified with the `standardwebhooks` library and its secret: the parsed payloads. */
  verified(secret: string): unknown[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(host = '127.0.0.1', path = '/hook'): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = answers.shift() ?? { status: 204 };
      res.writeHead(answer.status, answer.headers).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host === '::1' ? '[::1]' : host}:${port}${path}`,
    received,
    answers,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received.slice(0, count);
    },
    verified(secret) {
      const wh = new Webhook(secret);
      return received.map((r) => wh.verify(r.body, r.headers as Record<string, string>));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
