/** What to do with a batch after a response (the team's client rule). */
export type Outcome =
  | { kind: "done" }
  | { kind: "retry"; afterMs: number | null }
  | { kind: "shrink" }
  | { kind: "drop" };

/** 2xx done; 408/429/5xx (and network errors) retry honouring Retry-After; 413 shrink; any other 4xx drop. */
export function classify(status: number, retryAfter: string | null, nowMs: number): Outcome {
  if (status >= 200 && status < 300) return { kind: "done" };
  if (status === 413) return { kind: "shrink" };
  if (status === 408 || status === 429 || status >= 500) return { kind: "retry", afterMs: parseRetryAfter(retryAfter, nowMs) };
  if (status >= 400) return { kind: "drop" };
  // 1xx/3xx never reach us through fetch's redirect following; treat as transient.
  return { kind: "retry", afterMs: null };
}

const MAX_RETRY_AFTER_MS = 3_600_000;

/** Retry-After is delta-seconds or an HTTP date; unparseable values are ignored rather than trusted. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}

/** Exponential backoff with jitter in [50 %, 100 %] of the step, capped. */
export function backoffMs(attempt: number, jitter: number, baseMs = 1000, capMs = 300_000): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step * (0.5 + 0.5 * Math.min(1, Math.max(0, jitter))));
}
