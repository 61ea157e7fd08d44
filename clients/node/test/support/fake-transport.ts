import type { HttpRequest, HttpResponse, Transport } from '../../src/core/transport.js';

type Reply = HttpResponse | Error | 'hang';

/**
 * A scripted HTTP transport: answers requests from a queue of replies, in order, and records what
 * was sent. 'hang' never answers (until aborted), to exercise timeouts.
 */
export class FakeTransport implements Transport {
  readonly requests: (HttpRequest & { json: any })[] = [];
  private readonly replies: Reply[] = [];
  /** Reply used when the script is exhausted. */
  fallback: ((request: HttpRequest & { json: any }) => Reply) | undefined;

  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  send(request: HttpRequest): Promise<HttpResponse> {
    const recorded = { ...request, json: JSON.parse(request.body) };
    this.requests.push(recorded);
    const next = this.replies.shift() ?? this.fallback?.(recorded);
    if (next === undefined) return Promise.reject(new Error('FakeTransport: no reply scripted'));
    if (next === 'hang') {
      return new Promise((_, reject) => {
        request.signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    }
    if (next instanceof Error) return Promise.reject(next);
    return Promise.resolve(next);
  }

  /** Events sent in batch requests, in order. */
  get batchedEvents(): any[] {
    return this.requests.filter((r) => r.url.endsWith('/events/batch')).flatMap((r) => r.json.events);
  }
}

export function response(status: number, body: unknown = {}, headers: Record<string, string> = {}): HttpResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    header: (name) => lower[name.toLowerCase()] ?? null,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export function insightsBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: 'evt_1',
    device_id: null,
    handprint_id: 'hp_1',
    current_tags: ['new_device'],
    risk_score: 0.2,
    score_breakdown: [{ tag: 'new_device', weight: 0.2, contribution: 0.2 }],
    device_id_details: { age: { days: 0 } },
    behaviors: { logins_1h: { count: 3, sum: null, unique: null, values: null } },
    device: null,
    email_intel: null,
    phone_intel: null,
    warnings: [],
    ...overrides,
  };
}

/** A 200 batch response accepting every event of the request. */
export function batchOk(count: number): HttpResponse {
  return response(200, { results: Array.from({ length: count }, (_, i) => ({ status: 200, insights: insightsBody({ event_id: `evt_${i}` }) })) });
}
