import { eq, inArray } from 'drizzle-orm';
import { deviceKeys, type DeviceKeyRow } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import type { AttestationResult } from './attestation.js';

/** A device's registered key, as routes and the binding stage compare requests against it. */
export interface BoundKey {
  deviceId: string;
  keyId: string;
  /** SPKI DER, base64. */
  publicKey: string;
}

export async function boundKey(db: Queryable, deviceId: string): Promise<BoundKey | null> {
  const [row] = await db
    .select({ deviceId: deviceKeys.deviceId, keyId: deviceKeys.keyId, publicKey: deviceKeys.publicKey })
    .from(deviceKeys)
    .where(eq(deviceKeys.deviceId, deviceId))
    .limit(1);
  return row ?? null;
}

/** Binds a key; a device already bound keeps its key (callers hold the registry's lock on the device). */
export async function bindKey(db: Queryable, key: BoundKey, attestation: AttestationResult): Promise<void> {
  await db
    .insert(deviceKeys)
    .values({
      ...key,
      attestation: attestation.level,
      attestationProblem: attestation.problem,
      chain: attestation.chain as unknown as Record<string, unknown>[],
    })
    .onConflictDoNothing();
}

/** What a device's binding shows an operator (the CLI, the supervisor API, GraphQL): its key and what its chain proved. */
export interface BindingSummary {
  deviceId: string;
  keyId: string;
  attestation: DeviceKeyRow['attestation'];
  attestationProblem: string | null;
  boundAt: Date;
}

/** The bindings of those of `deviceIds` that are bound, by device id. */
export async function bindingsOf(db: Queryable, deviceIds: readonly string[]): Promise<Map<string, BindingSummary>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .select({
      deviceId: deviceKeys.deviceId,
      keyId: deviceKeys.keyId,
      attestation: deviceKeys.attestation,
      attestationProblem: deviceKeys.attestationProblem,
      boundAt: deviceKeys.createdAt,
    })
    .from(deviceKeys)
    .where(inArray(deviceKeys.deviceId, [...deviceIds]));
  return new Map(rows.map((r) => [r.deviceId, r]));
}

/**
 * Forgets a device's key (the app was reinstalled and its Keystore key is gone): its next registration that presents
 * a key binds that one. Whether a row was removed.
 */
export async function unbindKey(db: Queryable, deviceId: string): Promise<boolean> {
  const removed = await db.delete(deviceKeys).where(eq(deviceKeys.deviceId, deviceId)).returning({ deviceId: deviceKeys.deviceId });
  return removed.length > 0;
}
