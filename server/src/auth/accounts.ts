import { and, count, eq, isNull, ne, sql } from 'drizzle-orm';
import { supervisorCredentials, supervisors, type SupervisorRow } from '@vigil/drizzle/schema';
import type { DatabaseHandle, Tx } from '../db/handle.js';
import { VigilError } from '../errors.js';
import { accountHistory, recordAccountChange, type AccountAuditEntry, type Actor } from './account-audit.js';
import { carriedExpiry, credentialState, DEFAULT_OVERLAP_HOURS, overlapEnd, refuseRotation, rotationOverlapMs, type CredentialEvents } from './lifetimes.js';
import { generatePassword, hashPassword } from './password.js';
import type { SupervisorRole } from './roles.js';
import { toSupervisor, type CredentialListing, type Supervisor, type SupervisorStore } from './supervisor-store.js';
import { tokenExpiry, type TokenExpiry } from './token-expiry.js';
import { credentialWebhooks } from './credential-webhooks.js';

/** Serialises changes to accounts across processes, so two admins cannot each demote the other at once. */
const ACCOUNTS_LOCK = 0x76_61_63_63; // "vacc"

export interface AccountsOptions {
  database: DatabaseHandle;
  supervisors: SupervisorStore;
  /** VIGIL_API_TOKEN_DEFAULT_TTL_DAYS: lifetime of a token created without one; 0 means never. */
  defaultTokenTtlDays: number;
  now?: () => Date;
  /** Told of token rotations, in their transaction (default: announced as `key.rotated` webhooks). */
  events?: CredentialEvents;
  /** VIGIL_KEY_ROTATION_OVERLAP_HOURS: the overlap of a rotation that names none. */
  defaultOverlapHours?: number;
}

/**
 * What an admin does to accounts (from GraphQL, the console or the CLI): create, disable, enable, delete, reset a
 * password, change a role, mint and revoke credentials. Each change and its audit record are one transaction.
 * The last enabled admin cannot be disabled, deleted or demoted (409 `conflict`), so nobody can lock everyone out.
 */
export class Accounts {
  private readonly now: () => Date;

  constructor(private readonly options: AccountsOptions) {
    this.now = options.now ?? (() => new Date());
  }

  private get db() {
    return this.options.database.db;
  }

  async create(actor: Actor, username: string, role: SupervisorRole, password?: string) {
    return this.db.transaction(async (tx) => {
      const created = await this.options.supervisors.create(username, role, password, tx);
      await recordAccountChange(tx, actor, 'create', created.supervisor, { role });
      return created;
    });
  }

  async disable(actor: Actor, username: string): Promise<{ supervisor: Supervisor; sessionsRevoked: number }> {
    return this.change(username, async (tx, row) => {
      if (row.disabledAt) return { supervisor: toSupervisor(row), sessionsRevoked: 0 };
      await this.keepAnAdmin(tx, row, 'disable');
      const [updated] = await tx.update(supervisors).set({ disabledAt: this.now() }).where(eq(supervisors.id, row.id)).returning();
      // Sessions end for good; tokens are only refused while disabled, so scripts resume on enable.
      const sessionsRevoked = await this.revokeSessions(tx, row.id);
      await recordAccountChange(tx, actor, 'disable', row, { sessions_revoked: sessionsRevoked });
      return { supervisor: toSupervisor(updated!), sessionsRevoked };
    });
  }

  async enable(actor: Actor, username: string): Promise<Supervisor> {
    return this.change(username, async (tx, row) => {
      if (!row.disabledAt) return toSupervisor(row);
      const [updated] = await tx.update(supervisors).set({ disabledAt: null }).where(eq(supervisors.id, row.id)).returning();
      await recordAccountChange(tx, actor, 'enable', row);
      return toSupervisor(updated!);
    });
  }

  /** Removes the account and its credentials; the audit keeps its id and username. */
  async delete(actor: Actor, username: string): Promise<Supervisor> {
    return this.change(username, async (tx, row) => {
      await this.keepAnAdmin(tx, row, 'delete');
      const credentials = await tx
        .delete(supervisorCredentials)
        .where(eq(supervisorCredentials.supervisorId, row.id))
        .returning({ id: supervisorCredentials.id });
      await tx.delete(supervisors).where(eq(supervisors.id, row.id));
      await recordAccountChange(tx, actor, 'delete', row, { role: row.role, credentials_deleted: credentials.length });
      return toSupervisor(row);
    });
  }

  /** A new generated password (returned once, stored hashed); every session of the account ends. */
  async resetPassword(actor: Actor, username: string): Promise<{ supervisor: Supervisor; password: string; sessionsRevoked: number }> {
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    return this.change(username, async (tx, row) => {
      await tx.update(supervisors).set({ passwordHash }).where(eq(supervisors.id, row.id));
      const sessionsRevoked = await this.revokeSessions(tx, row.id);
      await recordAccountChange(tx, actor, 'reset_password', row, { sessions_revoked: sessionsRevoked });
      return { supervisor: toSupervisor(row), password, sessionsRevoked };
    });
  }

  async setRole(actor: Actor, username: string, role: SupervisorRole): Promise<Supervisor> {
    return this.change(username, async (tx, row) => {
      if (row.role === role) return toSupervisor(row);
      if (role !== 'admin') await this.keepAnAdmin(tx, row, 'demote');
      const [updated] = await tx.update(supervisors).set({ role }).where(eq(supervisors.id, row.id)).returning();
      await recordAccountChange(tx, actor, 'set_role', row, { from: row.role, to: role });
      return toSupervisor(updated!);
    });
  }

  async createToken(actor: Actor, username: string, name: string, expiry: TokenExpiry = {}) {
    const expiresAt = tokenExpiry(expiry, this.options.defaultTokenTtlDays, this.now());
    return this.change(username, async (tx, row) => {
      const token = await this.options.supervisors.createToken(row.id, name, expiresAt, tx);
      await recordAccountChange(tx, actor, 'create_token', row, { token_id: token.id, name, expires_at: expiresAt?.toISOString() ?? null });
      return { ...token, supervisor: toSupervisor(row) };
    });
  }

  /**
   * Rotation: a new token for the same account and name (returned once, with the old one's lifetime), and the old
   * one kept working for `overlapHours` (default: the configured overlap), then refused as expired. Audited as `rotate_token`. `not_found` for no such
   * token; `conflict` for one revoked, expired or already rotated.
   */
  async rotateToken(actor: Actor, id: string, overlapHours?: number | null) {
    const overlapMs = rotationOverlapMs(overlapHours, this.options.defaultOverlapHours ?? DEFAULT_OVERLAP_HOURS);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ credential: supervisorCredentials, supervisor: supervisors })
        .from(supervisorCredentials)
        .innerJoin(supervisors, eq(supervisors.id, supervisorCredentials.supervisorId))
        .where(and(eq(supervisorCredentials.id, id), eq(supervisorCredentials.kind, 'token')))
        .limit(1);
      if (!row) throw new VigilError('not_found', `No token ${id}`);
      const now = this.now();
      const old = row.credential;
      const state = credentialState(old, now);
      if (state !== 'active') refuseRotation('token', state);
      const created = await this.options.supervisors.createToken(old.supervisorId, old.name, carriedExpiry(old, now), tx);
      const oldExpiresAt = overlapEnd(old.expiresAt, now, overlapMs);
      // Only an unreplaced token is replaced: of two rotations at once, the second changes nothing and is refused.
      const replaced = await tx
        .update(supervisorCredentials)
        .set({ expiresAt: oldExpiresAt, replacedBy: created.id })
        .where(and(eq(supervisorCredentials.id, id), isNull(supervisorCredentials.replacedBy)))
        .returning({ id: supervisorCredentials.id });
      if (replaced.length === 0) refuseRotation('token', 'rotating');
      await recordAccountChange(tx, actor, 'rotate_token', row.supervisor, {
        token_id: id,
        new_token_id: created.id,
        name: old.name,
        old_expires_at: oldExpiresAt.toISOString(),
      });
      await (this.options.events ?? credentialWebhooks).rotated?.(tx, { kind: 'token', id, replacedBy: created.id, name: old.name, oldExpiresAt, at: now });
      const [previous] = await this.options.supervisors.credentials({ kind: 'token', id }, tx);
      return { ...created, supervisor: toSupervisor(row.supervisor), previous: previous! };
    });
  }

  /** Revokes a token or session at once; undefined when there is none of that kind with this id. */
  async revokeCredential(actor: Actor, kind: 'token' | 'session', id: string): Promise<CredentialListing | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ credential: supervisorCredentials, supervisor: supervisors })
        .from(supervisorCredentials)
        .innerJoin(supervisors, eq(supervisors.id, supervisorCredentials.supervisorId))
        .where(and(eq(supervisorCredentials.id, id), eq(supervisorCredentials.kind, kind)))
        .limit(1);
      if (!row) return undefined;
      if (!row.credential.revokedAt) {
        await tx.update(supervisorCredentials).set({ revokedAt: this.now() }).where(eq(supervisorCredentials.id, id));
        await recordAccountChange(tx, actor, kind === 'token' ? 'revoke_token' : 'revoke_session', row.supervisor, {
          [`${kind}_id`]: id,
          name: row.credential.name,
        });
      }
      return (await this.options.supervisors.credentials({ kind, id }, tx))[0];
    });
  }

  /** Tokens or sessions of every account, or of one (not_found when it does not exist); `active`: usable ones only. */
  async credentials(kind: 'token' | 'session', username?: string, active = false): Promise<CredentialListing[]> {
    if (username !== undefined && !(await this.options.supervisors.byUsername(username))) throw new VigilError('not_found', `No supervisor ${username}`);
    return this.options.supervisors.credentials({ kind, username, active });
  }

  history(options: { username?: string; limit: number }): Promise<AccountAuditEntry[]> {
    return accountHistory(this.db, options);
  }

  private change<T>(username: string, work: (tx: Tx, row: SupervisorRow) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${ACCOUNTS_LOCK})`);
      const [row] = await tx.select().from(supervisors).where(eq(supervisors.username, username)).limit(1);
      if (!row) throw new VigilError('not_found', `No supervisor ${username}`);
      return work(tx, row);
    });
  }

  /** Refuses to take away the last enabled admin; the caller holds the account lock. */
  private async keepAnAdmin(tx: Tx, row: SupervisorRow, what: 'disable' | 'delete' | 'demote'): Promise<void> {
    if (row.role !== 'admin' || row.disabledAt) return;
    const [others] = await tx
      .select({ n: count() })
      .from(supervisors)
      .where(and(eq(supervisors.role, 'admin'), isNull(supervisors.disabledAt), ne(supervisors.id, row.id)));
    if (Number(others?.n ?? 0) === 0) {
      throw new VigilError(
        'conflict',
        `Cannot ${what} ${row.username}: it is the last enabled admin, and nobody could manage accounts afterwards. Make another account admin first.`,
      );
    }
  }

  private async revokeSessions(tx: Tx, supervisorId: string): Promise<number> {
    const revoked = await tx
      .update(supervisorCredentials)
      .set({ revokedAt: this.now() })
      .where(and(eq(supervisorCredentials.supervisorId, supervisorId), eq(supervisorCredentials.kind, 'session'), isNull(supervisorCredentials.revokedAt)))
      .returning({ id: supervisorCredentials.id });
    return revoked.length;
  }
}
