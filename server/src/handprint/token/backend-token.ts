import { verifyBrowserToken } from './verify.js';
import type { KeyRing, ReplayCounter, VerifyFailure } from './types.js';

export type BrowserTokenLink =
  | { status: 'absent' }
  | { status: 'linked'; handprint_id: string; device_id: string; confidence: number; uses: number | null; device_mismatch: boolean }
  | { status: 'refused'; reason: VerifyFailure; warning: { code: string; message: string } };

const MESSAGES: Record<VerifyFailure, string> = {
  malformed: 'browser_token is not a Vigil browser token',
  unknown_key: 'browser_token was signed with an unknown or retired key',
  bad_signature: 'browser_token signature is invalid (forged or altered)',
  expired: 'browser_token has expired; call get() again in the browser for a fresh one',
  not_yet_valid: 'browser_token is not valid yet (clock skew)',
  replayed: 'browser_token was presented more times than allowed',
};

/**
 * For POST /events (backend, write key): the magic property `browser_token` links the event to the browser's
 * handprint and device. A refused token never fails the event: the event is stored without the link and the
 * response carries `warning` in its `warnings`. `device_mismatch` is true when the caller's device_id differs
 * from the one the token was issued to (the caller's value is kept; the server may add a warning).
 */
export async function linkBrowserToken(
  token: unknown,
  options: { keys: KeyRing; now: number; replay: ReplayCounter; maxUses?: number; callerDeviceId?: string | null },
): Promise<BrowserTokenLink> {
  if (token === undefined || token === null) return { status: 'absent' };
  const checked = await verifyBrowserToken(token, options);
  if (!checked.ok) {
    return { status: 'refused', reason: checked.reason, warning: { code: `browser_token_${checked.reason}`, message: MESSAGES[checked.reason] } };
  }
  const caller = options.callerDeviceId ?? null;
  return {
    status: 'linked',
    handprint_id: checked.claims.hp,
    device_id: checked.claims.dev,
    confidence: checked.claims.conf,
    uses: checked.uses,
    device_mismatch: caller !== null && caller !== checked.claims.dev,
  };
}
