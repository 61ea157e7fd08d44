import { batchCount, classifyStatus, growBatch, PAGE_BATCH, parseRetryAfter, QUEUE_BOUND, RETRY, retryDelay, shrinkBatch, utf8Bytes } from "@vigil/client-core";
import { LIBRARY } from "../version.js";
import { loadOrCreateDeviceId } from "./device-id.js";
import type { Endpoints } from "./endpoints.js";
import { postJson, problemMessage, type PostResult } from "./http.js";
import { randomId, randomUnit } from "./ids.js";
import { PersistentQueue, type QueuedEvent } from "./queue.js";
import type { Clock, Collected, FetchLike, KeyValueStore, LibraryWarning, RandomBytes, Signals, TrackResult } from "./types.js";
import { clip } from "./clip.js";

export interface CoreOptions {
  endpoints: Endpoints;
  /** Optional client key (vigil_ck_…). Never a write key: those stay on servers. */
  clientKey?: string;
  fetch: FetchLike;
  clock: Clock;
  randomBytes: RandomBytes;
  /** Where queued events are persisted (localStorage in browsers). */
  queueStore: KeyValueStore;
  /** Where the device_id is kept, in order of preference (localStorage, then a cookie). */
  deviceIdStores: readonly KeyValueStore[];
  collect(): Promise<Collected>;
  /** A number in [0, 1) for retry jitter; defaults to one drawn from randomBytes. */
  random?: () => number;
  // Delivery limits; the defaults are the shared client policy's (clients/POLICY.md).
  maxBatch?: number;
  maxQueue?: number;
  maxAttempts?: number;
  /** get() asks for a fresh token when the cached one has less than this left. */
  tokenRefreshMarginMs?: number;
  /** Told when the library changes what the page gave it (an identity cut to fit); the browser default logs it. */
  onWarning?: (warning: LibraryWarning) => void;
}

export interface VigilCore {
  identify(identity: string | null | undefined): void;
  track(event: string, properties?: Record<string, unknown>): Promise<TrackResult>;
  get(): Promise<Signals>;
  /** Sends what is queued now; `keepalive` lets the request outlive the page (used on page hide). */
  flush(options?: { keepalive?: boolean }): Promise<void>;
  deviceId(): string;
}

/** Largest single event accepted into the queue (serialized); the server's per-request limit is 64 KiB. */
export const MAX_EVENT_CHARS = 32 * 1024;
const MAX_EVENT_NAME = 200;
const MAX_IDENTITY = 256;

export function createCore(options: CoreOptions): VigilCore {
  const { endpoints, clock, randomBytes } = options;
  const maxBatch = options.maxBatch ?? PAGE_BATCH.maxEvents;
  const maxAttempts = options.maxAttempts ?? RETRY.maxAttempts;
  const random = options.random ?? (() => randomUnit(randomBytes));
  const margin = options.tokenRefreshMarginMs ?? 60_000;
  const queue = new PersistentQueue(options.queueStore, `vigil_queue:${endpoints.base}`, options.maxQueue ?? QUEUE_BOUND.browser);
  const waiters = new Map<string, (r: TrackResult) => void>();
  let deviceId: string | null = null;
  let identity: string | undefined;
  /** Set while the current identity is a cut one: every event that carries it says so in its result. */
  let identityWarning: LibraryWarning | null = null;
  let cached: { signals: Signals; expiresAt: number } | null = null;
  let inflight: Promise<Signals> | null = null;
  let flushing: Promise<void> | null = null;
  let retryTimer: unknown = null;
  let retryAt = 0;
  let batchLimit = maxBatch;
  /** Failed sends in a row (answered or not): drives the backoff. */
  let failures = 0;
  /** Events in a page-hide request still in flight: a second hide signal (visibilitychange, then pagehide) skips them. */
  const hideInFlight = new Set<string>();

  const getDeviceId = () => (deviceId ??= loadOrCreateDeviceId(options.deviceIdStores, randomBytes));

  const settle = (eventId: string, result: TrackResult) => {
    const waiter = waiters.get(eventId);
    if (waiter) {
      waiters.delete(eventId);
      waiter(result);
    }
  };

  async function fetchSignals(): Promise<Signals> {
    let collected: Collected | null = null;
    try {
      collected = await options.collect();
    } catch (error) {
      // Sources capture their own failures; this only guards against a broken collector.
      return failed("collection_failed", error instanceof Error ? error.message : String(error), null);
    }
    const result = await postJson(
      options.fetch,
      endpoints.collect,
      {
        version: 1,
        library: LIBRARY,
        device_id: getDeviceId(),
        sent_at: new Date(clock.now()).toISOString(),
        ...(identity !== undefined ? { identity } : {}),
        components: collected.components,
        device_signals: collected.device_signals,
      },
      { clientKey: options.clientKey },
    );
    if (result.kind === "network") return failed("network_error", result.message, collected);
    if (result.status < 200 || result.status >= 300) {
      const { code, message } = problemMessage(result.body, result.status);
      return { ...failed(code, message, collected), error: { code, message, status: result.status } };
    }
    const body = (result.body ?? {}) as Record<string, unknown>;
    if (typeof body.handprint_id !== "string" || typeof body.browser_token !== "string") {
      return failed("bad_response", "the /js/collect answer lacks handprint_id or browser_token", collected);
    }
    const expires = typeof body.expires_at === "string" ? Date.parse(body.expires_at) : NaN;
    const signals: Signals = {
      handprint_id: body.handprint_id,
      device_id: typeof body.device_id === "string" ? body.device_id : getDeviceId(),
      browser_token: body.browser_token,
      confidence: typeof body.confidence === "number" ? body.confidence : null,
      expires_at: Number.isNaN(expires) ? null : new Date(expires).toISOString(),
      is_new_handprint: typeof body.is_new_handprint === "boolean" ? body.is_new_handprint : null,
      device_signals: collected.device_signals,
      collection_ms: collected.ms,
    };
    cached = { signals, expiresAt: Number.isNaN(expires) ? clock.now() + 5 * 60_000 : expires };
    return signals;
  }

  function failed(code: string, message: string, collected: Collected | null): Signals {
    return {
      handprint_id: null,
      device_id: safeDeviceId(),
      browser_token: null,
      confidence: null,
      expires_at: null,
      is_new_handprint: null,
      device_signals: collected?.device_signals ?? null,
      collection_ms: collected?.ms ?? null,
      error: { code, message },
    };
  }

  function safeDeviceId(): string | null {
    try {
      return getDeviceId();
    } catch {
      return null;
    }
  }

  function get(): Promise<Signals> {
    if (cached && cached.expiresAt - clock.now() > margin) return Promise.resolve(cached.signals);
    inflight ??= fetchSignals()
      .catch((error: unknown) => failed("internal_error", error instanceof Error ? error.message : String(error), null))
      .finally(() => {
        inflight = null;
      });
    return inflight;
  }

  function scheduleRetry(delayMs: number) {
    retryAt = clock.now() + delayMs;
    if (retryTimer !== null) clock.clearTimeout(retryTimer);
    retryTimer = clock.setTimeout(() => {
      retryTimer = null;
      void flush();
    }, delayMs);
  }

  async function flushLoop(): Promise<void> {
    for (;;) {
      if (clock.now() < retryAt) {
        // Backing off: anything new stays queued until the timer fires.
        for (const e of queue.all()) settle(e.event_id, { status: "queued", event_id: e.event_id, reason: "retry_scheduled" });
        return;
      }
      const head = queue.all().slice(0, batchLimit);
      const limits = { maxEvents: batchLimit, maxBytes: PAGE_BATCH.maxBytes };
      const batch = head.slice(
        0,
        batchCount(
          head.map((e) => utf8Bytes(JSON.stringify(wireEvent(e)))),
          limits,
        ),
      );
      if (batch.length === 0) return;
      const token = (await get()).browser_token;
      const result = await postEvents(batch, token, false);
      const verdict = classifyStatus(result.kind === "network" ? null : result.status);
      if (verdict === "done") {
        failures = 0;
        batchLimit = growBatch(batchLimit, maxBatch);
        const retry = settleDelivered(batch, result);
        if (retry.length > 0) retryLater(retry, true, null);
      } else if (verdict === "shrink") {
        const limit = shrinkBatch(batch.length);
        if (limit !== null) batchLimit = limit;
        else {
          const only = batch[0] as QueuedEvent;
          queue.remove([only.event_id]);
          settle(only.event_id, { status: "dropped", event_id: only.event_id, reason: "too_large" });
        }
      } else if (verdict === "drop") {
        queue.remove(batch.map((e) => e.event_id));
        const reason = result.kind === "response" ? problemMessage(result.body, result.status).code : "rejected";
        for (const e of batch) settle(e.event_id, { status: "dropped", event_id: e.event_id, reason });
      } else {
        const answered = result.kind === "response";
        retryLater(batch, answered, answered ? parseRetryAfter(result.retryAfter, clock.now()) : null);
      }
    }
  }

  /** The /js/events body; `sent_at` lets the server correct the timestamps for this device's clock error. */
  function eventsBody(batch: readonly QueuedEvent[], token: string | null) {
    return {
      version: 1,
      library: LIBRARY,
      device_id: getDeviceId(),
      ...(token ? { browser_token: token } : {}),
      sent_at: new Date(clock.now()).toISOString(),
      events: batch.map(wireEvent),
    };
  }

  function postEvents(batch: readonly QueuedEvent[], token: string | null, keepalive: boolean) {
    return postJson(options.fetch, endpoints.events, eventsBody(batch, token), { clientKey: options.clientKey, keepalive });
  }

  /** Settles and unqueues an answered batch's events by their per-item results; returns the ones to retry. */
  function settleDelivered(batch: readonly QueuedEvent[], result: PostResult): QueuedEvent[] {
    const results = result.kind === "response" ? itemResults(result.body) : [];
    const retry: QueuedEvent[] = [];
    batch.forEach((e, i) => {
      const item = results[i];
      const itemVerdict = item ? classifyStatus(item.status) : "done";
      if (itemVerdict === "done") settle(e.event_id, { status: "sent", event_id: e.event_id });
      else if (itemVerdict === "retry") retry.push(e);
      else settle(e.event_id, { status: "dropped", event_id: e.event_id, reason: item?.reason ?? "rejected" });
    });
    queue.remove(batch.filter((e) => !retry.includes(e)).map((e) => e.event_id));
    return retry;
  }

  /**
   * The page is going away: every queued event goes out now in keepalive requests, without waiting for signal
   * collection or for a send already in progress (which may still be collecting and would die with the page).
   * Events go with the cached browser_token, or none; the server links them through device_id, and since each
   * carries its own event_id, a normal send of the same event that also arrives is stored once.
   */
  function sendOnHide(): void {
    const token = cached?.signals.browser_token ?? null;
    // Browsers refuse keepalive requests beyond this many body bytes in flight per page.
    let budget = PAGE_BATCH.keepaliveBytes;
    let pending = queue.all().filter((e) => !hideInFlight.has(e.event_id));
    while (pending.length > 0) {
      const sizes = pending.map((e) => utf8Bytes(JSON.stringify(wireEvent(e))));
      const count = batchCount(sizes, { maxEvents: maxBatch, maxBytes: PAGE_BATCH.maxBytes });
      const batch = pending.slice(0, count);
      const bytes = utf8Bytes(JSON.stringify(eventsBody(batch, token)));
      if (bytes > budget) return;
      budget -= bytes;
      pending = pending.slice(count);
      for (const e of batch) hideInFlight.add(e.event_id);
      void postEvents(batch, token, true)
        .then((result) => {
          // If the page survived (a tab switch), an answer settles the events; a failure leaves them queued.
          if (classifyStatus(result.kind === "network" ? null : result.status) === "done") settleDelivered(batch, result);
        })
        .catch(() => {})
        .finally(() => {
          for (const e of batch) hideInFlight.delete(e.event_id);
        });
    }
  }

  /**
   * Keeps the events queued and waits before the next send. Only an answer counts as an attempt: a page that is
   * offline keeps its events (the queue bound protects storage), one the server keeps failing on gives them up.
   */
  function retryLater(events: QueuedEvent[], answered: boolean, retryAfterMs: number | null) {
    failures++;
    if (answered) {
      queue.bump(events.map((e) => e.event_id));
      const exhausted = events.filter((e) => e.attempts + 1 >= maxAttempts);
      if (exhausted.length > 0) {
        queue.remove(exhausted.map((e) => e.event_id));
        for (const e of exhausted) settle(e.event_id, { status: "dropped", event_id: e.event_id, reason: "max_attempts" });
      }
    }
    scheduleRetry(retryDelay(failures, random(), retryAfterMs));
  }

  function flush(flushOptions: { keepalive?: boolean } = {}): Promise<void> {
    if (flushOptions.keepalive === true) {
      try {
        sendOnHide();
      } catch {
        // Never throw into the host page; events stay queued for the next visit.
      }
      return Promise.resolve();
    }
    flushing ??= flushLoop()
      .catch(() => {
        // Never throw into the host page; events stay queued for the next flush.
      })
      .finally(() => {
        flushing = null;
      });
    return flushing;
  }

  async function track(event: string, properties?: Record<string, unknown>): Promise<TrackResult> {
    const eventId = randomId("wev_", randomBytes);
    const invalid = validateEvent(event, properties);
    if (invalid) return { status: "dropped", event_id: eventId, reason: invalid };
    const queued: QueuedEvent = {
      event,
      ...(identity !== undefined ? { identity } : {}),
      ...(properties !== undefined ? { properties } : {}),
      event_id: eventId,
      timestamp: new Date(clock.now()).toISOString(),
      attempts: 0,
    };
    let serialized: string;
    try {
      serialized = JSON.stringify(queued);
    } catch {
      return { status: "dropped", event_id: eventId, reason: "properties_not_serializable" };
    }
    if (serialized.length > MAX_EVENT_CHARS) return { status: "dropped", event_id: eventId, reason: "too_large" };
    const done = new Promise<TrackResult>((resolve) => waiters.set(eventId, resolve));
    // Persist before send: if the page dies during the request the event is still in storage.
    for (const evicted of queue.add(JSON.parse(serialized) as QueuedEvent)) {
      settle(evicted.event_id, { status: "dropped", event_id: evicted.event_id, reason: "queue_full" });
    }
    // A pass already finishing may have read the queue before this event was added: run one more.
    void flush()
      .then(() => flush())
      .then(() => {
        // Still unsettled after a pass (another pass owned the send): it is safely queued.
        settle(eventId, { status: "queued", event_id: eventId, reason: "pending" });
      });
    return done;
  }

  return {
    identify(value) {
      identity = typeof value === "string" && value.length > 0 ? clip(value, MAX_IDENTITY) : undefined;
      identityWarning = null;
      if (typeof value === "string" && identity !== undefined && identity !== value) {
        identityWarning = {
          code: "identity_truncated",
          message: `identity has ${value.length} characters; the server takes at most ${MAX_IDENTITY}, so it was cut to the first ${identity.length}`,
        };
        try {
          options.onWarning?.(identityWarning);
        } catch {
          // A throwing handler must not break identify() in the host page.
        }
      }
    },
    track: (event, properties) => {
      const warning = identityWarning;
      const result = track(event, properties);
      return (warning ? result.then((r) => ({ ...r, warnings: [warning] })) : result).catch(
        (error: unknown): TrackResult => ({ status: "dropped", event_id: "", reason: error instanceof Error ? error.message : "internal_error" }),
      );
    },
    get,
    flush,
    deviceId: getDeviceId,
  };
}

function validateEvent(event: unknown, properties: unknown): string | null {
  if (typeof event !== "string" || event.length === 0 || event.length > MAX_EVENT_NAME) return "invalid_event_name";
  if (properties !== undefined && (typeof properties !== "object" || properties === null || Array.isArray(properties))) {
    return "invalid_properties";
  }
  return null;
}

function wireEvent(e: QueuedEvent) {
  return {
    event: e.event,
    ...(e.identity !== undefined ? { identity: e.identity } : {}),
    ...(e.properties !== undefined ? { properties: e.properties } : {}),
    event_id: e.event_id,
    timestamp: e.timestamp,
  };
}

function itemResults(body: unknown): Array<{ status: number; reason: string }> {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.map((r: unknown) => {
    const item = (typeof r === "object" && r !== null ? r : {}) as Record<string, unknown>;
    const status = typeof item.status === "number" ? item.status : 200;
    const error = item.error as Record<string, unknown> | undefined;
    return { status, reason: typeof error?.code === "string" ? error.code : `http_${status}` };
  });
}
