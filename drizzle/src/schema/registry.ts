import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The device registry: one row per registered device. A device that was never registered has no row (its status
 * is `unregistered`); the row is kept after deactivation so the registration can be reactivated or transferred.
 */
export const registrations = pgTable(
  'registrations',
  {
    /** The caller's device identifier (same value as `devices.device_id`, but a device may register before its first event). */
    deviceId: text('device_id').primaryKey(),
    /** User the device is registered to. */
    userId: text('user_id').notNull(),
    /** Role given at registration (`metadata.role`), free text. */
    role: text('role'),
    /** Registration metadata exactly as given (`branch` is filterable). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    /** `active` or `deactivated`. */
    status: text('status', { enum: ['active', 'deactivated'] }).notNull(),
    /** When the device was first registered. */
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull(),
    /** When the current user's association began: registration, or the latest transfer. */
    associatedSince: timestamp('associated_since', { withTimezone: true }).notNull(),
    /** Last change of any kind. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** Set while deactivated. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    deactivationReason: text('deactivation_reason'),
    deactivatedBy: text('deactivated_by'),
    /** Latest refused registration by another user; makes the device `multi_user` until a transfer. */
    conflictAt: timestamp('conflict_at', { withTimezone: true }),
    /** Bumped by a trigger on every change: ingestion's cached registrations are checked against it in the write. */
    version: bigint('version', { mode: 'number' }).notNull().default(1),
  },
  (t) => [
    index('registrations_user_idx').on(t.userId),
    // Prefix search (LIKE 'x%') in any database collation: a plain btree serves it only under the C collation.
    index('registrations_device_id_pattern_idx').on(t.deviceId.op('text_pattern_ops')),
    index('registrations_user_id_pattern_idx').on(t.userId.op('text_pattern_ops')),
    index('registrations_role_idx').on(t.role),
    index('registrations_status_idx').on(t.status),
    index('registrations_branch_idx').on(sql`(${t.metadata}->>'branch')`),
  ],
);

/** Every change to a registration, and every refused registration, with who asked and who was authenticated. */
export const registryAudit = pgTable(
  'registry_audit',
  {
    /** Time-sortable id (`aud_…`). */
    id: text('id').primaryKey(),
    deviceId: text('device_id').notNull(),
    /** register | register_conflict | deactivate | reactivate | transfer */
    action: text('action').notNull(),
    fromUser: text('from_user'),
    toUser: text('to_user'),
    reason: text('reason'),
    /** The `by` field as the caller gave it (a supervisor's own identifier). */
    by: text('by'),
    /** Who was authenticated: `write_key`, `client_key` or `supervisor`. */
    actorKind: text('actor_kind').notNull(),
    /** Key id or supervisor id. */
    actorId: text('actor_id').notNull(),
    /** Key name or supervisor username, as it was at the time. */
    actorName: text('actor_name').notNull(),
    /** Registration metadata given with a register or a refused register. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('registry_audit_device_at_idx').on(t.deviceId, t.at)],
);

/**
 * Which identities a device has been seen with, and when last: kept up to date by the registry insight stage so
 * `multi_user` is a lookup of a few rows, never a scan of events.
 */
export const deviceIdentities = pgTable(
  'device_identities',
  {
    deviceId: text('device_id').notNull(),
    identity: text('identity').notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    /** Advanced with a coarse resolution (see registry/association.ts) to spare row locks on the hot path. */
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.identity] }), index('device_identities_last_seen_idx').on(t.deviceId, t.lastSeen)],
);

export type RegistrationRow = typeof registrations.$inferSelect;
export type RegistryAuditRow = typeof registryAudit.$inferSelect;
