import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { devices, registrations, registryAudit, type RegistrationRow, type RegistryAuditRow } from '@vigil/drizzle/schema';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { newId } from '../ids.js';
import { enqueueWebhookEvent } from '../webhooks/outbox.js';
import type { WebhookEventType } from '../webhooks/event-types.js';
import type { Actor } from './actor.js';
import { transition, type AuditAction, type Command, type Refusal, type Registration } from './state.js';

/** The webhook each audited move announces, in the move's transaction. */
const WEBHOOK_OF: Record<AuditAction, WebhookEventType> = {
  register: 'device.registered',
  register_conflict: 'device.registration_conflict',
  deactivate: 'device.deactivated',
  reactivate: 'device.reactivated',
  transfer: 'device.transferred',
};

/** The result of applying a command: expected refusals are data, the edge turns them into 404/409. */
export type ApplyOutcome =
  /** `previous` is the registration before the move, so feedback can say what changed. */
  | { ok: true; registration: Registration; changed: boolean; previous: Registration | null }
  | { ok: false; reason: Refusal | 'unknown_device'; registration: Registration | null };

/**
 * Checks a move carries along in its transaction (device binding: the request's signature, the key it binds). `before`
 * runs under the device's lock and refuses the move by throwing; `accepted` runs once the move was accepted.
 */
export interface MoveHooks {
  before?(tx: Queryable): Promise<void>;
  accepted?(tx: Queryable): Promise<void>;
}

const REGISTRY_LOCK_SEED = 0x72_65_67; // "reg"

export function toRegistration(row: RegistrationRow): Registration {
  return {
    deviceId: row.deviceId,
    userId: row.userId,
    role: row.role,
    metadata: row.metadata,
    status: row.status,
    registeredAt: row.registeredAt,
    associatedSince: row.associatedSince,
    deactivatedAt: row.deactivatedAt,
    deactivationReason: row.deactivationReason,
    deactivatedBy: row.deactivatedBy,
    conflictAt: row.conflictAt,
  };
}

/** Registrations of many devices in one query. */
export async function loadRegistrations(db: Queryable, deviceIds: readonly string[]): Promise<Map<string, Registration>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(registrations)
    .where(inArray(registrations.deviceId, [...deviceIds]));
  return new Map(rows.map((r) => [r.deviceId, toRegistration(r)]));
}

/** Audit records of many devices, newest first, at most `limit` each (one query for the whole page). */
export async function loadHistory(db: Queryable, deviceIds: readonly string[], limit = 100): Promise<Map<string, RegistryAuditRow[]>> {
  const out = new Map<string, RegistryAuditRow[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return out;
  const ranked = db
    .select({
      ...getTableColumns(registryAudit),
      rank: sql<number>`row_number() OVER (PARTITION BY ${registryAudit.deviceId} ORDER BY ${registryAudit.at} DESC, ${registryAudit.id} DESC)`.as('rank'),
    })
    .from(registryAudit)
    .where(inArray(registryAudit.deviceId, [...deviceIds]))
    .as('ranked');
  const rows = await db.select().from(ranked).where(sql`${ranked.rank} <= ${limit}`);
  for (const { rank: _rank, ...row } of rows) out.get(row.deviceId)?.push(row);
  for (const list of out.values()) list.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
  return out;
}

/** The registry in the database. Each move runs in one transaction, serialised per device by an advisory lock. */
export class RegistryRepository {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async apply(deviceId: string, command: Command, actor: Actor, hooks: MoveHooks = {}): Promise<ApplyOutcome> {
    return this.database.db.transaction(async (tx) => {
      // A row lock cannot guard a row that does not exist yet (the first registration), an advisory lock can.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${deviceId}, ${REGISTRY_LOCK_SEED}))`);
      await hooks.before?.(tx);
      const [row] = await tx.select().from(registrations).where(eq(registrations.deviceId, deviceId)).limit(1);
      const current = row ? toRegistration(row) : null;
      if (!current && command.type !== 'register' && !(await this.isKnown(tx, deviceId))) {
        return { ok: false, reason: 'unknown_device', registration: null };
      }
      const now = this.now();
      const decided = transition(current, command, now, deviceId);
      if (decided.next && decided.next !== current) await this.write(tx, decided.next, now, !current);
      if (decided.audit) {
        await tx.insert(registryAudit).values({
          id: newId('aud', now.getTime()),
          deviceId,
          ...decided.audit,
          actorKind: actor.kind,
          actorId: actor.id,
          actorName: actor.name,
          at: now,
        });
        await enqueueWebhookEvent(tx, {
          type: WEBHOOK_OF[decided.audit.action],
          timestamp: now,
          data: {
            device_id: deviceId,
            status: (decided.next ?? current)?.status ?? null,
            user_id: (decided.next ?? current)?.userId ?? null,
            from_user: decided.audit.fromUser,
            to_user: decided.audit.toUser,
            reason: decided.audit.reason,
            by: decided.audit.by,
            metadata: decided.audit.metadata,
            actor: { kind: actor.kind, name: actor.name },
          },
        });
      }
      if (decided.ok) {
        await hooks.accepted?.(tx);
        return { ok: true, registration: decided.next, changed: decided.changed, previous: current };
      }
      return { ok: false, reason: decided.refusal, registration: current };
    });
  }

  private async write(tx: Queryable, next: Registration, now: Date, insert: boolean) {
    const values = {
      userId: next.userId,
      role: next.role,
      metadata: next.metadata,
      status: next.status,
      registeredAt: next.registeredAt,
      associatedSince: next.associatedSince,
      updatedAt: now,
      deactivatedAt: next.deactivatedAt,
      deactivationReason: next.deactivationReason,
      deactivatedBy: next.deactivatedBy,
      conflictAt: next.conflictAt,
    };
    if (insert) await tx.insert(registrations).values({ deviceId: next.deviceId, ...values });
    else await tx.update(registrations).set(values).where(eq(registrations.deviceId, next.deviceId));
  }

  /** Known: seen in an event or ever registered (a device with only a refused history is still unknown). */
  async isKnown(db: Queryable, deviceId: string): Promise<boolean> {
    const [seen] = await db.select({ id: devices.id }).from(devices).where(eq(devices.deviceId, deviceId)).limit(1);
    return Boolean(seen);
  }

  async get(deviceId: string, db: Queryable = this.database.db): Promise<Registration | null> {
    const [row] = await db.select().from(registrations).where(eq(registrations.deviceId, deviceId)).limit(1);
    return row ? toRegistration(row) : null;
  }

  async getMany(deviceIds: readonly string[], db: Queryable = this.database.db): Promise<Map<string, Registration>> {
    return loadRegistrations(db, deviceIds);
  }

  async historyOf(deviceIds: readonly string[], limit = 100, db: Queryable = this.database.db): Promise<Map<string, RegistryAuditRow[]>> {
    return loadHistory(db, deviceIds, limit);
  }

  /** A device's audit trail for the supervisor API: a reporting read, on the reporting connections. */
  async history(deviceId: string, limit = 100): Promise<RegistryAuditRow[]> {
    return this.database.reporting
      .select()
      .from(registryAudit)
      .where(and(eq(registryAudit.deviceId, deviceId)))
      .orderBy(desc(registryAudit.at), desc(registryAudit.id))
      .limit(limit);
  }
}
