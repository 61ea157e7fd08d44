import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Devices known by the caller's `device_id`: when they were first and last seen. */
export const devices = pgTable(
  'devices',
  {
    /** Vigil's time-sortable id (`dev_…`). */
    id: text('id').primaryKey(),
    /** The caller's device identifier (Android library id, browser storage id, …). */
    deviceId: text('device_id').notNull().unique(),
    /** Time of the earliest event seen for this device (event time, so late offline events count). */
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    /** Time of the latest event seen for this device. */
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    /** Handprint of the latest event from this device. */
    handprintId: text('handprint_id'),
    /** Device model reported in event properties (`device_model`). */
    model: text('model'),
    /** OS version reported in event properties (`os_version`). */
    osVersion: text('os_version'),
  },
  (t) => [
    index('devices_last_seen_idx').on(t.lastSeen),
    // Prefix search (LIKE 'x%') in any database collation: a plain btree serves it only under the C collation.
    index('devices_device_id_pattern_idx').on(t.deviceId.op('text_pattern_ops')),
  ],
);

/** Handprints: first and last sighting, used for age when an event names no device. */
export const handprints = pgTable(
  'handprints',
  {
    /** The fingerprint id (`hp_…`). */
    handprintId: text('handprint_id').primaryKey(),
    /** Time of the earliest event with this handprint. */
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    /** Time of the latest event with this handprint. */
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [
    // Only ids from before server-side handprints were keyed (`hp_` + 22) are in it, so a start finds at once
    // whether any are left to link, however many handprints there are.
    index('handprints_legacy_id_idx').on(t.handprintId).where(sql`length(${t.handprintId}) = 25`),
  ],
);

export type DeviceRow = typeof devices.$inferSelect;

/**
 * Server-side handprint ids given before they were keyed with the installation secret, each linked to the keyed id
 * of the same inputs. Filled when an event meets an old id (the secret is unknown to SQL, so no migration can rewrite
 * the ids); readers that look a handprint up follow the link.
 */
export const handprintAliases = pgTable(
  'handprint_aliases',
  {
    /** The old, unkeyed id (`hp_` + 22 base64url). */
    legacyId: text('legacy_id').primaryKey(),
    /** The keyed id of the same user agent, language and network. */
    handprintId: text('handprint_id').notNull(),
    /** When the link was made. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('handprint_aliases_handprint_id_idx').on(t.handprintId)],
);
