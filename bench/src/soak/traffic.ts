import { eventBody } from '../bodies.js';

/**
 * What a soak sends: the load benchmark's logins and transfers (bodies.ts: 5,000 users on 4,000 devices), plus
 * what a live service also sees over time, so that anything kept per device, per batch or per idempotency key has
 * the chance to grow: anonymous page views from devices never seen before, batches (a client flushing its queue)
 * and retries of an earlier request (a client that lost the answer). Request n is always the same request.
 */

/** Request n is a batch when n % BATCH_EVERY is BATCH_EVERY - 1. */
const BATCH_EVERY = 20;
const BATCH_SIZE = 10;
/** Request n repeats request n - REPLAY_DISTANCE whole when n % REPLAY_EVERY is REPLAY_AT (that one is never a batch). */
const REPLAY_EVERY = 100;
const REPLAY_AT = 50;
const REPLAY_DISTANCE = 25;
/** One event in NEW_DEVICE_EVERY is an anonymous page view from a new device. */
const NEW_DEVICE_EVERY = 10;

/** Events per request on average: the rate of events a request rate makes. */
export const EVENTS_PER_REQUEST = (BATCH_EVERY - 1 + BATCH_SIZE) / BATCH_EVERY;

export interface SoakRequest {
  path: '/events' | '/events/batch';
  body: string;
}

const isBatch = (n: number) => n % BATCH_EVERY === BATCH_EVERY - 1;

/** How many events request n carries. */
export function eventsIn(n: number): number {
  return isBatch(n) ? BATCH_SIZE : 1;
}

/** Event k (each k once in a run; a replay repeats an event, it does not make one). */
function event(k: number): string {
  if (k % NEW_DEVICE_EVERY !== NEW_DEVICE_EVERY - 1) return eventBody(k);
  return JSON.stringify({
    event: 'page_view',
    properties: {
      event_id: `soak-${process.pid}-${k}`,
      device_id: `soak-device-${process.pid}-${k}`,
      ip_address: `198.51.100.${k & 255}`,
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      session_id: `soak-session-${k}`,
      page: `/products/${k % 500}`,
      referrer: k % 3 === 0 ? 'https://search.example/' : null,
    },
  });
}

/** Request n of a soak. */
export function soakRequest(n: number): SoakRequest {
  if (n % REPLAY_EVERY === REPLAY_AT) return soakRequest(n - REPLAY_DISTANCE);
  // Events before request n: one per request, and BATCH_SIZE - 1 more per batch among them.
  const first = n + (BATCH_SIZE - 1) * Math.floor(n / BATCH_EVERY);
  if (!isBatch(n)) return { path: '/events', body: event(first) };
  const events = Array.from({ length: BATCH_SIZE }, (_, i) => event(first + i));
  return { path: '/events/batch', body: `{"events":[${events.join(',')}]}` };
}
