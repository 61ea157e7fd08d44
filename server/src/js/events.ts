import { toProblem, VigilError, type Problem } from '../errors.js';
import { acceptEvent } from '../ingest/accept.js';
import type { Ingestor } from '../ingest/ingestor.js';
import type { RequestContext } from '../pipeline/event.js';
import type { DbHandprintProfiles } from '../handprint/profile-store.js';
import type { KeyRing } from '../handprint/token/types.js';
import { prepareBrowserEvents } from './prepare-events.js';

export interface BrowserEventsDeps {
  keys: KeyRing;
  ingestor: Ingestor;
  profiles: DbHandprintProfiles;
  now(): number;
  log: { error(obj: object, msg: string): void };
}

/** The browser sees whether each event was stored, never its insights (risk must not be probeable from a page). */
export type BrowserEventResult = { status: 200; event_id: string } | { status: number; error: Problem };

export interface BrowserEventsAnswer {
  results: BrowserEventResult[];
  warnings?: { code: string; message: string }[];
}

/**
 * POST /js/events: the page's batch, each event ingested through the same path as POST /events. The handprint is
 * the token's when the token verifies (not replay-counted: the page re-sends its token with every batch), else
 * the one this device_id was last collected with; an unusable token never loses the events. The device_signals
 * the page sent with its collection are attached (the page cannot set them on its events itself).
 */
export async function ingestBrowserEvents(body: unknown, ctx: RequestContext, deps: BrowserEventsDeps): Promise<BrowserEventsAnswer> {
  // ip and user agent come from the connection (ctx), never from the page's body.
  const prepared = prepareBrowserEvents(body, { keys: deps.keys, now: deps.now, ip: null, userAgent: null });
  if (prepared.status !== 200) throw prepared.error;
  const deviceId = prepared.device_id;
  const handprintId = prepared.claims?.hp ?? (await deps.profiles.handprintOfDevice(deviceId).catch(() => null));
  // The automation evidence the page sent with its last collection, so risk stages judge page events too.
  const deviceSignals = handprintId ? await deps.profiles.deviceSignals(handprintId, deviceId).catch(() => null) : null;
  const results = await Promise.all(
    prepared.items.map(async (item, i): Promise<BrowserEventResult> => {
      if (!item.ok) return { status: 400, error: toProblem(item.error) };
      try {
        const { browser_token: _token, ...properties } = item.ingest.properties;
        if (deviceSignals) properties.device_signals = deviceSignals;
        const outcome = await acceptEvent({ ...item.ingest, properties }, ctx, deps, {
          prefix: `events.${i}`,
          link: (event) => {
            event.handprintId = handprintId;
          },
        });
        return { status: 200, event_id: outcome.insights.event_id };
      } catch (error) {
        const failure = error instanceof VigilError ? error : new VigilError('internal', 'An internal error occurred');
        return { status: failure.status, error: toProblem(failure) };
      }
    }),
  );
  // The library drops items answered individually; a storage failure must make it retry the batch instead
  // (events already stored are answered from their event_id on the retry, not stored twice).
  if (results.some((r) => r.status >= 500)) {
    throw new VigilError('unavailable', 'The events could not be stored; retry the batch', { headers: { 'Retry-After': '1' } });
  }
  const warnings = prepared.token_warning
    ? [{ code: prepared.token_warning, message: 'browser_token was not used; the events were linked by device_id' }]
    : undefined;
  return { results, ...(warnings ? { warnings } : {}) };
}
