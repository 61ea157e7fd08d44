import { linkBrowserToken } from './token/backend-token.js';
import type { KeyRing, ReplayCounter } from './token/types.js';
import type { NormalizedEvent } from '../pipeline/event.js';
import type { DbHandprintProfiles } from './profile-store.js';

export interface BackendLinkDeps {
  keys: KeyRing;
  replay: ReplayCounter;
  maxUses: number;
  profiles: DbHandprintProfiles;
  now(): number;
}

/**
 * The magic property `browser_token` on a backend's POST /events: a valid token gives the event the browser's
 * handprint (over the server-side one), its device_id when the caller sent none, and the browser's latest
 * device_signals when the caller sent none. A refused token never fails the event; it is stored without the link
 * and the refusal is reported in `warnings`.
 */
export async function applyBrowserToken(event: NormalizedEvent, deps: BackendLinkDeps): Promise<void> {
  const token = event.properties.browser_token;
  if (token === undefined || token === null) return;
  let link: Awaited<ReturnType<typeof linkBrowserToken>>;
  try {
    link = await linkBrowserToken(token, { keys: deps.keys, now: deps.now(), replay: deps.replay, maxUses: deps.maxUses, callerDeviceId: event.deviceId });
  } catch {
    // The use could not be counted (database trouble): the event matters more than the link.
    event.warnings.push({ code: 'browser_token_unchecked', message: 'browser_token could not be checked right now; the event was stored without it' });
    return;
  }
  if (link.status === 'absent') return;
  if (link.status === 'refused') {
    event.warnings.push(link.warning);
    return;
  }
  event.handprintId = link.handprint_id;
  if (event.deviceId === null) event.deviceId = link.device_id;
  if (link.device_mismatch) {
    event.warnings.push({
      code: 'browser_token_device_mismatch',
      message: `device_id differs from the browser's (${link.device_id}); the caller's device_id was kept`,
    });
  }
  if (event.properties.device_signals === undefined) {
    const signals = await deps.profiles.deviceSignals(link.handprint_id, link.device_id).catch(() => null);
    if (signals) event.properties = { ...event.properties, device_signals: signals };
  }
}
