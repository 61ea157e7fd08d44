import { and, asc, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { supervisorCredentials, supervisors } from '@vigil/drizzle/schema';
import type { DatabaseHandle, Queryable, Tx } from '../db/handle.js';
import { VigilError } from '../errors.js';
import { newId } from '../ids.js';
import { decoyHash, generatePassword, hashPassword, verifyPassword } from './password.js';
import type { CredentialExpired } from './lifetimes.js';
import type { SupervisorRole } from './roles.js';
import { mintSecret, secretPrefixes, sha256Hex } from './secrets.js';

export interface Supervisor {
  id: string;
  username: string;
  role: SupervisorRole;
  createdAt: Date;
  /** Set while disabled: no sign-in, every session and token refused. */
  disabledAt: Date | null;
}

/** An authenticated supervisor and the credential that proved it. */
export interface Principal {
  supervisor: Supervisor;
  credential: { id: string; kind: 'token' | 'session' };
}

/** Expected outcomes of presenting a credential, as data. */
export type CredentialCheck =
  | { ok: true; principal: Principal }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'revoked' | 'expired' | 'disabled'; kind: 'token' | 'session' };

/** Expected outcomes of a sign-in: a wrong password and an unknown username are one answer. */
export type LoginResult =
  | { ok: true; id: string; token: string; expiresAt: Date; supervisor: Supervisor }
  | { ok: false; reason: 'wrong_password' | 'disabled' };

export interface CredentialListing {
  id: string;
  kind: 'token' | 'session';
  name: string;
  username: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** The token that replaced this one by rotation. */
  replacedBy: string | null;
}

export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** last_used_at is written at most this often per credential, so reads do not each cost a write. */
const USAGE_RESOLUTION_MS = 60_000;

export const isSupervisorSecret = (presented: string) => presented.startsWith(secretPrefixes.supervisor_token) || presented.startsWith(secretPrefixes.session);

/**
 * Supervisor accounts, their API tokens and console sessions. Credentials are stored as SHA-256 like keys and
 * looked up on every request with their account (no cache), so revocation, logout, expiry and disabling the account
 * apply at once in every process.
 */
export class SupervisorStore {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates an account; `password` is generated when not given and returned either way (shown once). */
  async create(username: string, role: SupervisorRole, password?: string, db: Queryable = this.database.db) {
    if (!USERNAME_PATTERN.test(username)) {
      throw new VigilError('validation_failed', 'username must be 1 to 64 letters, digits or . _ @ -', {
        errors: [{ path: 'username', message: 'must be 1 to 64 letters, digits or . _ @ -' }],
      });
    }
    const secret = password ?? generatePassword();
    if (secret.length < 12) {
      throw new VigilError('validation_failed', 'password must be at least 12 characters', {
        errors: [{ path: 'password', message: 'must be at least 12 characters' }],
      });
    }
    const id = newId('sup');
    const inserted = await db
      .insert(supervisors)
      .values({ id, username, role, passwordHash: await hashPassword(secret) })
      .onConflictDoNothing({ target: supervisors.username })
      .returning({ id: supervisors.id, createdAt: supervisors.createdAt });
    if (inserted.length === 0) throw new VigilError('conflict', `A supervisor named ${username} already exists`);
    return { supervisor: { id, username, role, createdAt: inserted[0]!.createdAt, disabledAt: null } satisfies Supervisor, password: secret };
  }

  async list(): Promise<Supervisor[]> {
    return (await this.database.db.select().from(supervisors).orderBy(asc(supervisors.username))).map(toSupervisor);
  }

  async byUsername(username: string): Promise<Supervisor | undefined> {
    const [row] = await this.database.db.select().from(supervisors).where(eq(supervisors.username, username)).limit(1);
    return row ? toSupervisor(row) : undefined;
  }

  async count(db: Queryable = this.database.db): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(supervisors);
    return Number(row?.n ?? 0);
  }

  /** An API token for REST and GraphQL clients; `expiresAt` null: it never expires. */
  async createToken(supervisorId: string, name: string, expiresAt: Date | null = null, db: Queryable = this.database.db) {
    return this.createCredential(supervisorId, 'token', name, expiresAt, db);
  }

  /**
   * Checks a password and opens a console session. Unknown usernames cost the same scrypt work as a wrong
   * password, so timing does not reveal which accounts exist. A disabled account is told so only after the right
   * password.
   */
  async login(username: string, password: string, ttlMs: number): Promise<LoginResult> {
    const [row] = await this.database.db.select().from(supervisors).where(eq(supervisors.username, username)).limit(1);
    const valid = await verifyPassword(password, row?.passwordHash ?? (await decoyHash()));
    if (!row || !valid) return { ok: false, reason: 'wrong_password' };
    if (row.disabledAt) return { ok: false, reason: 'disabled' };
    const expiresAt = new Date(this.now().getTime() + ttlMs);
    const session = await this.createCredential(row.id, 'session', 'console', expiresAt);
    return { ok: true, id: session.id, token: session.token, expiresAt, supervisor: toSupervisor(row) };
  }

  private async createCredential(supervisorId: string, kind: 'token' | 'session', name: string, expiresAt: Date | null, db: Queryable = this.database.db) {
    const minted = mintSecret(kind === 'token' ? 'supervisor_token' : 'session');
    const id = newId(kind === 'token' ? 'tok' : 'ses');
    await db.insert(supervisorCredentials).values({
      id,
      supervisorId,
      kind,
      name,
      hash: minted.hash,
      displayPrefix: minted.displayPrefix,
      expiresAt,
      createdAt: this.now(),
    });
    return { id, token: minted.secret, expiresAt };
  }

  async authenticate(presented: string): Promise<CredentialCheck> {
    const [row] = await this.database.db
      .select({ credential: supervisorCredentials, supervisor: supervisors })
      .from(supervisorCredentials)
      .innerJoin(supervisors, eq(supervisors.id, supervisorCredentials.supervisorId))
      .where(eq(supervisorCredentials.hash, sha256Hex(presented)))
      .limit(1);
    if (!row) return { ok: false, reason: 'unknown' };
    const { credential } = row;
    // The account row is read with the credential on every request, so disabling applies at once in every process.
    // It is reported first: it says most about why, and what to do.
    if (row.supervisor.disabledAt) return { ok: false, reason: 'disabled', kind: credential.kind };
    if (credential.revokedAt) return { ok: false, reason: 'revoked', kind: credential.kind };
    const now = this.now();
    if (credential.expiresAt && credential.expiresAt <= now) return { ok: false, reason: 'expired', kind: credential.kind };
    if (!credential.lastUsedAt || now.getTime() - credential.lastUsedAt.getTime() >= USAGE_RESOLUTION_MS) {
      await this.database.db.update(supervisorCredentials).set({ lastUsedAt: now }).where(eq(supervisorCredentials.id, credential.id));
    }
    return { ok: true, principal: { supervisor: toSupervisor(row.supervisor), credential: { id: credential.id, kind: credential.kind } } };
  }

  /** Returns false when no such credential exists; revoking twice is harmless. */
  async revoke(id: string, kind?: 'token' | 'session'): Promise<boolean> {
    const where = kind ? and(eq(supervisorCredentials.id, id), eq(supervisorCredentials.kind, kind)) : eq(supervisorCredentials.id, id);
    const [row] = await this.database.db
      .select({ id: supervisorCredentials.id, revokedAt: supervisorCredentials.revokedAt })
      .from(supervisorCredentials)
      .where(where)
      .limit(1);
    if (!row) return false;
    if (!row.revokedAt) await this.database.db.update(supervisorCredentials).set({ revokedAt: this.now() }).where(eq(supervisorCredentials.id, id));
    return true;
  }

  async tokens(id?: string): Promise<CredentialListing[]> {
    return this.credentials({ kind: 'token', id });
  }

  /**
   * Tokens or sessions, newest first: all of them, one (`id`) or one account's (`username`); `active` leaves out the
   * revoked and expired ones (every sign-in adds a session, so the full list only grows).
   */
  async credentials(
    filter: { kind: 'token' | 'session'; id?: string; username?: string; active?: boolean },
    db: Queryable = this.database.db,
  ): Promise<CredentialListing[]> {
    const conditions: (SQL | undefined)[] = [eq(supervisorCredentials.kind, filter.kind)];
    if (filter.id !== undefined) conditions.push(eq(supervisorCredentials.id, filter.id));
    if (filter.username !== undefined) conditions.push(eq(supervisors.username, filter.username));
    if (filter.active) {
      const now = this.now();
      conditions.push(isNull(supervisorCredentials.revokedAt), or(isNull(supervisorCredentials.expiresAt), gt(supervisorCredentials.expiresAt, now)));
    }
    const rows = await db
      .select({ credential: supervisorCredentials, username: supervisors.username })
      .from(supervisorCredentials)
      .innerJoin(supervisors, eq(supervisors.id, supervisorCredentials.supervisorId))
      .where(and(...conditions))
      .orderBy(desc(supervisorCredentials.createdAt), desc(supervisorCredentials.id));
    return rows.map(({ credential: c, username }) => ({
      id: c.id,
      kind: c.kind,
      name: c.name,
      username,
      displayPrefix: c.displayPrefix,
      createdAt: c.createdAt,
      expiresAt: c.expiresAt,
      lastUsedAt: c.lastUsedAt,
      revokedAt: c.revokedAt,
      replacedBy: c.replacedBy,
    }));
  }

  /** API tokens whose expiry passed and was not yet noticed, marked so (like KeyStore.noteExpired; sessions are not told). */
  async noteExpiredTokens(tx: Tx): Promise<CredentialExpired[]> {
    const now = this.now();
    const noted = await tx
      .update(supervisorCredentials)
      .set({ expiryNotedAt: now })
      .where(
        and(
          eq(supervisorCredentials.kind, 'token'),
          lte(supervisorCredentials.expiresAt, now),
          isNull(supervisorCredentials.expiryNotedAt),
          isNull(supervisorCredentials.revokedAt),
        ),
      )
      .returning({
        id: supervisorCredentials.id,
        name: supervisorCredentials.name,
        expiresAt: supervisorCredentials.expiresAt,
        replacedBy: supervisorCredentials.replacedBy,
      });
    return noted.map((t) => ({ kind: 'token' as const, ...t, expiresAt: t.expiresAt! }));
  }
}

export function toSupervisor(row: typeof supervisors.$inferSelect): Supervisor {
  return { id: row.id, username: row.username, role: row.role, createdAt: row.createdAt, disabledAt: row.disabledAt };
}
