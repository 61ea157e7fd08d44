import type { Tx } from '../db/handle.js';
import { VigilError } from '../errors.js';

const HOUR_MS = 60 * 60 * 1000;
/** VIGIL_KEY_ROTATION_OVERLAP_HOURS's default: a day, long enough to redeploy every holder of the old key. */
export const DEFAULT_OVERLAP_HOURS = 24;
/** The longest overlap a rotation may be given, in hours (30 days): longer is a second key, not an overlap. */
export const MAX_OVERLAP_HOURS = 720;

/**
 * Where a credential is in its life, for listings: `rotating` is a replaced credential still inside its overlap;
 * `expired` also covers a replaced one after its overlap.
 */
export type CredentialState = 'active' | 'rotating' | 'expired' | 'revoked';

export function credentialState(c: { revokedAt: Date | null; expiresAt: Date | null; replacedBy: string | null }, now: Date): CredentialState {
  if (c.revokedAt) return 'revoked';
  if (c.expiresAt && c.expiresAt <= now) return 'expired';
  return c.replacedBy ? 'rotating' : 'active';
}

/** The overlap of one rotation: the hours given (0: the old credential stops at once) or the configured default. */
export function rotationOverlapMs(overlapHours: number | null | undefined, defaultHours: number): number {
  const hours = overlapHours ?? defaultHours;
  if (!Number.isFinite(hours) || hours < 0 || hours > MAX_OVERLAP_HOURS) {
    throw new VigilError('validation_failed', `overlapHours must be from 0 to ${MAX_OVERLAP_HOURS}`, {
      errors: [{ path: 'overlapHours', message: `must be from 0 to ${MAX_OVERLAP_HOURS}` }],
    });
  }
  return Math.round(hours * HOUR_MS);
}

/**
 * When the old credential of a rotation stops: the end of the overlap, or its own expiry if that comes first
 * (a rotation never lengthens a credential's life).
 */
export function overlapEnd(expiresAt: Date | null, now: Date, overlapMs: number): Date {
  const end = new Date(now.getTime() + overlapMs);
  return expiresAt && expiresAt < end ? expiresAt : end;
}

/**
 * The new credential of a rotation lives as long as the old one was given (a 90-day key rotates into a 90-day key);
 * one that never expired is replaced by one that never expires.
 */
export function carriedExpiry(old: { createdAt: Date; expiresAt: Date | null }, now: Date): Date | null {
  if (!old.expiresAt) return null;
  return new Date(now.getTime() + Math.max(0, old.expiresAt.getTime() - old.createdAt.getTime()));
}

/** A rotation is refused for a credential that no longer works or was already replaced. */
export function refuseRotation(what: string, state: CredentialState): never {
  const why = state === 'rotating' ? 'has already been rotated; rotate its replacement' : `is ${state}; create a new one instead`;
  throw new VigilError('conflict', `This ${what} ${why}`);
}

export type CredentialKind = 'write' | 'client' | 'token';

/** A rotation, as it is told to whoever listens (`key.rotated` webhooks are enqueued from here at merge). */
export interface CredentialRotated {
  kind: CredentialKind;
  /** The credential replaced; it works until `oldExpiresAt`. */
  id: string;
  replacedBy: string;
  name: string;
  oldExpiresAt: Date;
  at: Date;
}

/** An expiry Vigil noticed (`key.expired`); each credential's expiry is told once, across processes. */
export interface CredentialExpired {
  kind: CredentialKind;
  id: string;
  name: string;
  expiresAt: Date;
  /** Set when the credential expired at the end of a rotation's overlap. */
  replacedBy: string | null;
}

/**
 * The one place where rotations and expiries are announced. Each hook runs inside the transaction that records the
 * change, so an outbox write (the webhooks' `enqueueWebhookEvent(tx, …)`) commits or rolls back with it.
 */
export interface CredentialEvents {
  rotated?(tx: Tx, event: CredentialRotated): Promise<void>;
  expired?(tx: Tx, event: CredentialExpired): Promise<void>;
}
