import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Device binding: the public half of the key an Android device keeps in its Keystore, registered once. From then on
 * the device's registration changes and events must be signed by it (README, "Device binding").
 */
export const deviceKeys = pgTable('device_keys', {
  /** The caller's device identifier (same value as `registrations.device_id`); one key per device. */
  deviceId: text('device_id').primaryKey(),
  /** The key's id as the device sends it in `Vigil-Device-Key-Id`: base64url SHA-256 of the SPKI, unpadded. */
  keyId: text('key_id').notNull(),
  /** The public key, DER SubjectPublicKeyInfo, base64; every signed request is verified against it. */
  publicKey: text('public_key').notNull(),
  /** What the attestation chain proved: `strongbox`, `hardware`, `software` or `unverified`. */
  attestation: text('attestation', { enum: ['strongbox', 'hardware', 'software', 'unverified'] }).notNull(),
  /** Why the chain proved no more (`wrong_root`, `expired`, `wrong_challenge`, …); null when it verified. */
  attestationProblem: text('attestation_problem'),
  /** The chain as received, summarised: each certificate's subject, issuer, serial, validity and SHA-256. */
  chain: jsonb('chain').$type<Record<string, unknown>[]>().notNull(),
  /** When the key was bound. */
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type DeviceKeyRow = typeof deviceKeys.$inferSelect;
