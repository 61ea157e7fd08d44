import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surfaceDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';

interface RawAnswer {
  /** Every response on the connection, in order. */
  responses: { status: number; headers: Record<string, string>; body: any }[];
  /** Whether the server closed the connection. */
  closed: boolean;
  /** Chunks still unsent when the connection closed. */
  unsent: number;
}

/**
 * Writes `chunks` to a raw TCP connection, `gapMs` apart, and reads until the server closes it (or `waitMs` passes):
 * this shows exactly what Node's parser and Vigil put on the wire, which an HTTP client library would hide.
 */
function exchange(port: number, chunks: (string | Buffer)[], options: { gapMs?: number; waitMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let next = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      clearTimeout(guard);
      socket.destroy();
      resolve({ responses: parseResponses(Buffer.concat(received).toString('latin1')), closed, unsent: chunks.length - next });
    };
    const guard = setTimeout(() => finish(false), options.waitMs ?? 15_000);
    const write = () => {
      if (socket.destroyed || next >= chunks.length) return;
      socket.write(chunks[next++]!);
      if (next < chunks.length) timer = setTimeout(write, options.gapMs ?? 0);
    };
    socket.on('connect', write);
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('timeout', () => reject(new Error('socket timeout')));
  });
}

function parseResponses(text: string): RawAnswer['responses'] {
  const out: RawAnswer['responses'] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const bodyText = rest.slice(end + 4, end + 4 + length);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: bodyText ? JSON.parse(bodyText) : undefined });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

function expectClosingProblem(answer: RawAnswer, status: number, code: string): void {
  const last = answer.responses.at(-1);
  expect(last, JSON.stringify(answer)).toBeDefined();
  expect(last!.status).toBe(status);
  expect(last!.headers['content-type']).toBe('application/problem+json');
  expect(last!.headers.connection).toBe('close');
  expect(last!.body).toMatchObject({ status, code, type: `/problems/${code}` });
  expect(answer.closed).toBe(true);
}

describe.each(surfaceDrivers())('errors of the HTTP layer itself on %s', (driver) => {
  let server: TestVigil;
  let port: number;
  beforeAll(async () => {
    // A short body timeout so the slow-client cases finish quickly.
    server = await startTestVigil(driver, { VIGIL_REQUEST_TIMEOUT_SECONDS: '1' });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => server?.close());

  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  it('answers headers over the size limit with a 431 problem and closes', async () => {
    const answer = await exchange(port, [head(['GET /healthz HTTP/1.1', 'Host: vigil', `X-Padding: ${'a'.repeat(20_000)}`])]);
    expectClosingProblem(answer, 431, 'headers_too_large');
  });

  it('answers a malformed request line or URL with a 400 problem and closes', async () => {
    for (const line of ['GET /healthz extra HTTP/1.1', 'GET /heal\u0001thz HTTP/1.1', 'BREW /healthz HTTP/1.1', 'GET /healthz HTTP/9.9']) {
      expectClosingProblem(await exchange(port, [head([line, 'Host: vigil'])]), 400, 'malformed_request');
    }
  });

  it('answers Transfer-Encoding: chunked with Content-Length with a 400 problem and closes (no request smuggling)', async () => {
    const answer = await exchange(port, [
      head([
        'POST /events HTTP/1.1',
        'Host: vigil',
        `Authorization: Bearer ${server.writeKey}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Content-Length: 20',
      ]),
      '10\r\n{"event":"smug"}\r\n0\r\n\r\n',
    ]);
    expectClosingProblem(answer, 400, 'malformed_request');
  });

  it('answers a NUL in a header or an unparsable Content-Length with a 400 problem and closes', async () => {
    expectClosingProblem(await exchange(port, [head(['GET /healthz HTTP/1.1', 'Host: vigil', 'X-A: a\u0000b'])]), 400, 'malformed_request');
    expectClosingProblem(await exchange(port, [head(['POST /events HTTP/1.1', 'Host: vigil', 'Content-Length: 1x'])]), 400, 'malformed_request');
  });

  it('answers garbage after a good request on a kept-alive connection, after the good answer', async () => {
    const answer = await exchange(port, [head(['GET /healthz HTTP/1.1', 'Host: vigil']), 'NOT HTTP AT ALL\r\n\r\n'], { gapMs: 200 });
    expect(answer.responses[0]!.status).toBe(200);
    expectClosingProblem(answer, 400, 'malformed_request');
  });

  it('closes a request whose body stops arriving with a 408 problem', async () => {
    const body = '{"event":"slow"}'.padEnd(200, ' ');
    const drip = [...body].map((c) => c);
    const answer = await exchange(
      port,
      [
        head([
          'POST /events HTTP/1.1',
          'Host: vigil',
          `Authorization: Bearer ${server.writeKey}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ]),
        ...drip,
      ],
      { gapMs: 250 },
    );
    expectClosingProblem(answer, 408, 'request_timeout');
    // Closed while the client was still sending: the connection is not held for the whole drip.
    expect(answer.unsent).toBeGreaterThan(0);
  });

  it('closes a request whose headers stop arriving with a 408 problem', async () => {
    const lines = ['POST /events HTTP/1.1\r\n', 'Host: vigil\r\n', ...Array.from({ length: 60 }, (_, i) => `X-Slow-${i}: ${i}\r\n`), '\r\n'];
    const answer = await exchange(port, lines, { gapMs: 250 });
    expectClosingProblem(answer, 408, 'request_timeout');
    expect(answer.unsent).toBeGreaterThan(0);
  });

  it('closes a connection that never sends a request with a 408 problem', async () => {
    expectClosingProblem(await exchange(port, []), 408, 'request_timeout');
  });

  it('stores header bytes outside ASCII as the Latin-1 text Node reads, which PostgreSQL accepts', async () => {
    // UTF-8 bytes of a lone surrogate: Node reads header bytes as Latin-1, so they never reach the database as one.
    const agent = Buffer.from([0x41, 0xed, 0xa0, 0x80, 0xff]);
    const body = '{"event":"odd-agent"}';
    const answer = await exchange(port, [
      Buffer.concat([
        Buffer.from(
          `POST /events HTTP/1.1\r\nHost: vigil\r\nAuthorization: Bearer ${server.writeKey}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\nUser-Agent: `,
        ),
        agent,
        Buffer.from(`\r\n\r\n${body}`),
      ]),
    ]);
    expect(answer.responses[0]!.status).toBe(200);
    const [row] = await server.database.db.select().from(events).where(eq(events.id, answer.responses[0]!.body.event_id));
    expect(row!.userAgent).toBe(agent.toString('latin1'));
  });
});
