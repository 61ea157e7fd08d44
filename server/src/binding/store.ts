import { eq } from 'drizzle-orm';
import { deviceKeys } from '@vigil/drizzle/schema';
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

/** A device's binding as the CLI shows it. */
export async function bindingOf(db: Queryable, deviceId: string) {
  const [row] = await db.select().from(deviceKeys).where(eq(deviceKeys.deviceId, deviceId)).limit(1);
  return row ?? null;
}

/**
 * Forgets a device's key (the app was reinstalled and its Keystore key is gone): its next registration that presents
 * a key binds that one. Whether a row was removed.
 */
export async function unbindKey(db: Queryable, deviceId: string): Promise<boolean> {
  const removed = await db.delete(deviceKeys).where(eq(deviceKeys.deviceId, deviceId)).returning({ deviceId: deviceKeys.deviceId });
  return removed.length > 0;
}
