/**
 * The registry's state machine as pure functions: no database, no clock, so every row of the state table and
 * every illegal move is tested directly. The repository applies what these functions decide.
 */

export type RegistrationStatus = 'active' | 'deactivated';

/** A device's registry status as callers see it: unregistered when it has no registration. */
export type DeviceStatus = 'unregistered' | RegistrationStatus;

export interface Registration {
  deviceId: string;
  userId: string;
  role: string | null;
  metadata: Record<string, unknown>;
  status: RegistrationStatus;
  registeredAt: Date;
  associatedSince: Date;
  deactivatedAt: Date | null;
  deactivationReason: string | null;
  deactivatedBy: string | null;
  conflictAt: Date | null;
}

export type Command =
  | { type: 'register'; userId: string; metadata: Record<string, unknown> }
  | { type: 'deactivate'; reason: string; by: string | null }
  | { type: 'reactivate'; reason: string; by: string | null }
  | { type: 'transfer'; newUserId: string; by: string | null };

export type AuditAction = 'register' | 'register_conflict' | 'deactivate' | 'reactivate' | 'transfer';

/** What the audit trail records about a move (the actor and time are added by the repository). */
export interface AuditEntry {
  action: AuditAction;
  fromUser: string | null;
  toUser: string | null;
  reason: string | null;
  by: string | null;
  metadata: Record<string, unknown> | null;
}

/** Refusals are expected outcomes, so they are data; the edge maps `code` onto the error catalog. */
export type Refusal = 'device_registered_to_other_user' | 'device_not_registered' | 'device_deactivated';

export type Transition =
  /** `changed: false` is an idempotent repeat: nothing is written and nothing audited. */
  | { ok: true; next: Registration; changed: boolean; audit: AuditEntry | null }
  /** `audit`/`next` are set when a refusal must still be recorded (a conflicting registration). */
  | { ok: false; refusal: Refusal; next: Registration | null; audit: AuditEntry | null };

/** `role` is taken from metadata.role when it is a non-empty string. */
export function roleOf(metadata: Record<string, unknown>): string | null {
  const role = metadata.role;
  if (typeof role === 'string' && role.length > 0) return role;
  if (typeof role === 'number' || typeof role === 'boolean') return String(role);
  return null;
}

const entry = (action: AuditAction, fields: Partial<AuditEntry>): AuditEntry => ({
  action,
  fromUser: null,
  toUser: null,
  reason: null,
  by: null,
  metadata: null,
  ...fields,
});

/**
 * Decides one move. `current` is null for a device that is not registered; `now` is when the move happens.
 *
 * | From                 | Command    | Outcome                                               |
 * |----------------------|------------|-------------------------------------------------------|
 * | not registered       | register   | active                                                |
 * | active, same user    | register   | unchanged (idempotent)                                |
 * | any, other user      | register   | refused device_registered_to_other_user, conflict kept |
 * | deactivated, same user | register | refused device_deactivated                            |
 * | active               | deactivate | deactivated; repeat is idempotent                     |
 * | active / deactivated | transfer   | same status, new user, fresh association              |
 * | deactivated          | reactivate | active; repeat is idempotent                          |
 * | not registered       | deactivate / transfer / reactivate | refused device_not_registered |
 */
export function transition(current: Registration | null, command: Command, now: Date, deviceId: string): Transition {
  switch (command.type) {
    case 'register': {
      if (!current) {
        const next: Registration = {
          deviceId,
          userId: command.userId,
          role: roleOf(command.metadata),
          metadata: command.metadata,
          status: 'active',
          registeredAt: now,
          associatedSince: now,
          deactivatedAt: null,
          deactivationReason: null,
          deactivatedBy: null,
          conflictAt: null,
        };
        return { ok: true, next, changed: true, audit: entry('register', { toUser: command.userId, metadata: command.metadata }) };
      }
      if (current.userId !== command.userId) {
        // The refused attempt is evidence that the device is shared: it is kept and makes the device multi_user.
        return {
          ok: false,
          refusal: 'device_registered_to_other_user',
          next: { ...current, conflictAt: now },
          audit: entry('register_conflict', { fromUser: current.userId, toUser: command.userId, metadata: command.metadata }),
        };
      }
      if (current.status === 'deactivated') return { ok: false, refusal: 'device_deactivated', next: null, audit: null };
      return { ok: true, next: current, changed: false, audit: null };
    }
    case 'deactivate': {
      if (!current) return { ok: false, refusal: 'device_not_registered', next: null, audit: null };
      if (current.status === 'deactivated') return { ok: true, next: current, changed: false, audit: null };
      return {
        ok: true,
        next: { ...current, status: 'deactivated', deactivatedAt: now, deactivationReason: command.reason, deactivatedBy: command.by },
        changed: true,
        audit: entry('deactivate', { fromUser: current.userId, toUser: current.userId, reason: command.reason, by: command.by }),
      };
    }
    case 'reactivate': {
      if (!current) return { ok: false, refusal: 'device_not_registered', next: null, audit: null };
      if (current.status === 'active') return { ok: true, next: current, changed: false, audit: null };
      return {
        ok: true,
        next: { ...current, status: 'active', deactivatedAt: null, deactivationReason: null, deactivatedBy: null },
        changed: true,
        audit: entry('reactivate', { fromUser: current.userId, toUser: current.userId, reason: command.reason, by: command.by }),
      };
    }
    case 'transfer': {
      if (!current) return { ok: false, refusal: 'device_not_registered', next: null, audit: null };
      if (current.userId === command.newUserId) return { ok: true, next: current, changed: false, audit: null };
      // A transfer is a supervisor's decision about who holds the device: earlier users and conflicts no longer count.
      return {
        ok: true,
        next: { ...current, userId: command.newUserId, associatedSince: now, conflictAt: null },
        changed: true,
        audit: entry('transfer', { fromUser: current.userId, toUser: command.newUserId, by: command.by }),
      };
    }
  }
}
