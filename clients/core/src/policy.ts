/**
 * The client delivery policy: every default of retry, backoff and batching in one place. The table in
 * clients/POLICY.md explains each value; clients/policy-cases.json carries the same numbers (its `policy` block)
 * so the TypeScript, Kotlin and any future client's tests fail when one of them drifts.
 */
export const RETRY = {
  /** Step of the first retry, before jitter. */
  baseDelayMs: 1_000,
  /** Each consecutive failure multiplies the step by this. */
  multiplier: 2,
  /** Largest step: a client that failed for long still comes back within a minute of recovery. */
  maxDelayMs: 60_000,
  /** Longest Retry-After honoured; a longer one (a misconfigured proxy) is cut to this. */
  retryAfterCapMs: 300_000,
  /**
   * Answers with a retryable status (408, 429, 5xx) an event may get before it is given up. Failures without an
   * answer (offline, DNS, timeouts) do not count: they say nothing about the event, and the queue bound protects
   * memory and storage instead.
   */
  maxAttempts: 20,
} as const;

/** Batches for `POST /events/batch` (Node and Android): the server's own limits (100 events, 1 MiB). */
export const EVENTS_BATCH = {
  maxEvents: 100,
  /** Below the server's 1 MiB so request framing never tips a full batch over. */
  maxBytes: 1_000_000,
} as const;

/** Batches for `POST /js/events` (browsers): the server takes 50 events and 64 KiB; keepalive requests 64 KiB. */
export const PAGE_BATCH = {
  maxEvents: 20,
  /** Event bytes per request; the rest of 64 KiB is the envelope (device id, browser token ≤ 2 KiB). */
  maxBytes: 60 * 1024,
  /** What browsers allow in flight for keepalive requests (fetch keepalive / sendBeacon) per page. */
  keepaliveBytes: 64 * 1024,
} as const;

/** How long a non-full batch waits for company before it is sent, per runtime. */
export const FLUSH_INTERVAL_MS = {
  /** Backends: one second keeps requests few under load and insights fresh. */
  node: 1_000,
  /** Pages and apps send at once (one request in flight; what arrives meanwhile rides the next one). */
  browser: 0,
  android: 0,
} as const;

/** Most events held for delivery, per runtime (beyond it the oldest or newest are dropped and reported). */
export const QUEUE_BOUND = {
  node: 10_000,
  browser: 200,
  android: 10_000,
} as const;
