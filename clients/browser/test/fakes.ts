import type { Clock, FetchLike, KeyValueStore, RequestInitLike, ResponseLike } from "../src/core/types.js";

/** Manual time for deterministic retry tests: timers fire only when the test advances the clock. */
export class ManualClock implements Clock {
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private nextId = 1;
  constructor(public time = Date.UTC(2025, 0, 1)) {}
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };
  pending(): number[] {
    return this.timers.map((t) => t.at - this.time);
  }
  /** Moves time forward, running due timers in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = until;
  }
}

export interface RecordedRequest {
  url: string;
  init: RequestInitLike;
  body: Record<string, unknown>;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

/** A scripted fetch: answers from a queue of replies (or a function) and records every request. */
export function scriptedFetch(handler: (req: RecordedRequest) => Reply | Promise<Reply>) {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const req = { url, init, body: JSON.parse(init.body) as Record<string, unknown> };
    requests.push(req);
    const reply = await handler(req);
    if (reply instanceof Error) throw reply;
    return response(reply.status, reply.body, reply.headers);
  };
  return { fetch, requests };
}

export function response(status: number, body?: unknown, headers: Record<string, string> = {}): ResponseLike {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    headers: { get: (name) => lower[name.toLowerCase()] ?? null },
    text: async () => (body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body)),
  };
}

export function mapStore(initial: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: (k) => data.get(k) ?? null,
    set: (k, v) => void data.set(k, v),
    remove: (k) => void data.delete(k),
  };
}

export function throwingStore(): KeyValueStore {
  const fail = () => {
    throw new DOMException("The operation is insecure.", "SecurityError");
  };
  return { get: fail, set: fail, remove: fail };
}

/** Deterministic bytes (a counter), so ids are predictable. */
export function countingRandom() {
  let n = 0;
  return (length: number) => Uint8Array.from({ length }, () => n++ & 255);
}
