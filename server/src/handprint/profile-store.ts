import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { handprintProfileDevices, handprintProfileKeys, handprintProfiles } from '@vigil/drizzle/schema';
import type { HandprintFeatures } from './match/features.js';
import type { StoredHandprint } from './match/match.js';
import type { HandprintStore } from './match/service.js';
import type { DatabaseHandle } from '../db/handle.js';

/** What the browser sent with one reading, beyond its features. */
export interface Reading {
  deviceId: string | null;
  deviceSignals: Record<string, unknown> | null;
}

/**
 * Handprint profiles in the database (PostgreSQL or PGlite), behind the HandprintStore interface of match/service.ts.
 * A store is bound to one reading so that candidates only report whether *this* device_id was seen with them
 * (the only use matching has for device ids) instead of loading every device of every candidate.
 */
export class DbHandprintProfiles {
  constructor(private readonly database: DatabaseHandle) {}

  forReading(reading: Reading): HandprintStore {
    return {
      findByKeys: (keys, limit) => this.findByKeys(keys, limit, reading.deviceId),
      save: (record) => this.save(record, reading),
    };
  }

  /** The handprint a browser device_id was last seen with, for its events that carry no valid token. */
  async handprintOfDevice(deviceId: string): Promise<string | null> {
    const [row] = await this.database.db
      .select({ id: handprintProfileDevices.handprintId })
      .from(handprintProfileDevices)
      .where(eq(handprintProfileDevices.deviceId, deviceId))
      .orderBy(desc(handprintProfileDevices.lastSeen))
      .limit(1);
    return row?.id ?? null;
  }

  /** The latest device_signals the browser sent with this handprint and device, if any. */
  async deviceSignals(handprintId: string, deviceId: string): Promise<Record<string, unknown> | null> {
    const [row] = await this.database.db
      .select({ signals: handprintProfileDevices.deviceSignals })
      .from(handprintProfileDevices)
      .where(and(eq(handprintProfileDevices.handprintId, handprintId), eq(handprintProfileDevices.deviceId, deviceId)))
      .limit(1);
    return row?.signals ?? null;
  }

  private async findByKeys(keys: readonly string[], limit: number, deviceId: string | null): Promise<StoredHandprint[]> {
    if (keys.length === 0) return [];
    const db = this.database.db;
    const rows = await db
      .select({ id: handprintProfiles.handprintId, features: handprintProfiles.features, lastSeen: handprintProfiles.lastSeen })
      .from(handprintProfiles)
      .where(
        inArray(
          handprintProfiles.handprintId,
          db
            .selectDistinct({ id: handprintProfileKeys.handprintId })
            .from(handprintProfileKeys)
            .where(inArray(handprintProfileKeys.key, [...keys])),
        ),
      )
      .orderBy(desc(handprintProfiles.lastSeen))
      .limit(limit);
    const withDevice = new Set<string>();
    if (deviceId && rows.length > 0) {
      const linked = await db
        .select({ id: handprintProfileDevices.handprintId })
        .from(handprintProfileDevices)
        .where(
          and(
            eq(handprintProfileDevices.deviceId, deviceId),
            inArray(
              handprintProfileDevices.handprintId,
              rows.map((r) => r.id),
            ),
          ),
        );
      linked.forEach((r) => withDevice.add(r.id));
    }
    return rows.map((r) => ({
      handprint_id: r.id,
      features: r.features as HandprintFeatures,
      device_ids: withDevice.has(r.id) && deviceId ? [deviceId] : [],
      last_seen: r.lastSeen.getTime(),
    }));
  }

  private async save(record: Parameters<HandprintStore['save']>[0], reading: Reading): Promise<'saved' | 'conflict'> {
    const seen = new Date(record.seen_at);
    const seenSql = sql`${seen.toISOString()}::timestamptz`;
    const id = record.handprint_id;
    return this.database.db.transaction(async (tx) => {
      const profile = { handprintId: id, features: record.features as Record<string, unknown>, firstSeen: seen, lastSeen: seen };
      if (record.isNew) {
        // A concurrent first visit of the same browser derived the same id: let the caller match against it.
        const inserted = await tx.insert(handprintProfiles).values(profile).onConflictDoNothing().returning({ id: handprintProfiles.handprintId });
        if (inserted.length === 0) return 'conflict';
      } else {
        await tx
          .insert(handprintProfiles)
          .values(profile)
          .onConflictDoUpdate({
            target: handprintProfiles.handprintId,
            set: { features: profile.features, lastSeen: sql`GREATEST(${handprintProfiles.lastSeen}, ${seenSql})` },
          });
      }
      const keys = [...new Set(record.keys)];
      await tx
        .delete(handprintProfileKeys)
        .where(
          keys.length > 0
            ? and(eq(handprintProfileKeys.handprintId, id), notInArray(handprintProfileKeys.key, keys))
            : eq(handprintProfileKeys.handprintId, id),
        );
      if (keys.length > 0) {
        await tx
          .insert(handprintProfileKeys)
          .values(keys.map((key) => ({ key, handprintId: id })))
          .onConflictDoNothing();
      }
      if (reading.deviceId) {
        await tx
          .insert(handprintProfileDevices)
          .values({ handprintId: id, deviceId: reading.deviceId, lastSeen: seen, deviceSignals: reading.deviceSignals })
          .onConflictDoUpdate({
            target: [handprintProfileDevices.handprintId, handprintProfileDevices.deviceId],
            set: {
              lastSeen: sql`GREATEST(${handprintProfileDevices.lastSeen}, ${seenSql})`,
              deviceSignals: sql`COALESCE(excluded.device_signals, ${handprintProfileDevices.deviceSignals})`,
            },
          });
      }
      return 'saved';
    });
  }
}
