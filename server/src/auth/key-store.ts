import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import { apiKeys } from '@vigil/drizzle/schema';
import type { DatabaseHandle, Queryable, Tx } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { VigilError } from '../errors.js';
import type { QuietWrites } from '../pipeline/fact-cache.js';
import { newId } from '../ids.js';
import {
  carriedExpiry,
  credentialState,
  DEFAULT_OVERLAP_HOURS,
  overlapEnd,
  refuseRotation,
  rotationOverlapMs,
  type CredentialEvents,
  type CredentialExpired,
  type CredentialState,
} from './lifetimes.js';
import { enqueueWebhookEvent } from '../webhooks/outbox.js';
import { mintSecret, sha256Hex } from './secrets.js';
import { credentialWebhooks } from './credential-webhooks.js';

export type KeyKind = 'write' | 'client';

/** An authenticated key, as request handlers see it. */
export interface ApiKey {
  id: string;
  kind: KeyKind;
  name: string;
  hash: string;
}

/** Authentication is an expected outcome, so it is data, not an exception. */
export type KeyCheck = { ok: true; key: ApiKey } | { ok: false; reason: 'unknown' | 'revoked' | 'expired' };

export interface KeyListing {
  id: string;
  kind: KeyKind;
  name: string;
  display_prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Null: never expires. */
  expires_at: string | null;
  /** The key that replaced this one by rotation. */
  replaced_by: string | null;
  status: CredentialState;
}

export interface KeyStoreOptions {
  /** The clock expiry is judged by (tests inject one). */
  now?: () => Date;
  /** Told of rotations, in their transaction (default: announced as `key.rotated` webhooks). */
  events?: CredentialEvents;
  /** VIGIL_KEY_ROTATION_OVERLAP_HOURS: the overlap of a rotation that names none. */
  defaultOverlapHours?: number;
  /** Told of the usage flush's writes, which change no fact of the pipeline's (FactCache.enter and apart). */
  usageWrites?: QuietWrites;
}

/** A cache entry: the check, and when a valid key stops being valid. */
interface Cached {
  check: KeyCheck;
  expiresAt: Date | null;
}

/** Cross-process revocation channel: every Vigil process drops the key from its cache when told. */
export const KEY_REVOKED_CHANNEL = 'vigil_key_revoked';

const CACHE_MAX = 10_000;

/**
 * Keys looked up by SHA-256. Known keys are cached so the hot path does no query; revocation invalidates the cache
 * at once in this process and, through NOTIFY, in every other process on the same database. If the notification
 * connection is lost the cache is switched off rather than risk honouring a revoked key, until it listens again.
 */
export class KeyStore {
  private readonly cache = new Map<string, Cached>();
  private cacheEnabled = false;
  /**
   * Counts what the cache was told to forget (a revocation, a rotation, a lost or restored channel). A read that
   * began before caches nothing: its row may be from before the revocation whose notice came while it ran, and
   * nothing would ever drop it again.
   */
  private forgets = 0;
  private readonly usage = new Map<string, Date>();
  private unlisten: (() => Promise<void>) | undefined;

  private readonly now: () => Date;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly options: KeyStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async start(onLost: (error: Error) => void = () => {}, onRestored: () => void = () => {}): Promise<void> {
    this.unlisten = await this.database.listen(
      KEY_REVOKED_CHANNEL,
      (hash) => this.forget(hash),
      (error) => {
        this.cacheEnabled = false;
        this.forget();
        onLost(error);
      },
      // Revocations sent while the channel was down were missed: start from an empty cache.
      () => {
        this.forget();
        this.cacheEnabled = true;
        onRestored();
      },
    );
    this.cacheEnabled = true;
  }

  async stop(): Promise<void> {
    this.cacheEnabled = false;
    // check() reads the cache whatever cacheEnabled says: a stopped store hears no revocation, so it keeps nothing.
    this.forget();
    await this.unlisten?.();
    await this.flushUsage();
  }

  async check(presented: string): Promise<KeyCheck> {
    const hash = sha256Hex(presented);
    const cached = this.cache.get(hash) ?? (await this.read(hash));
    if (!cached) return { ok: false, reason: 'unknown' };
    // Expiry is judged at every check, cached or not: a cached key stops at its expiry like a read one.
    if (cached.check.ok && cached.expiresAt && cached.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    return cached.check;
  }

  /** Drops one key (by hash), or every key, from the cache. */
  private forget(hash?: string): void {
    this.forgets++;
    if (hash === undefined) this.cache.clear();
    else this.cache.delete(hash);
  }

  private async read(hash: string): Promise<Cached | undefined> {
    const forgets = this.forgets;
    const [row] = await this.database.db
      .select({ id: apiKeys.id, kind: apiKeys.kind, name: apiKeys.name, revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt })
      .from(apiKeys)
      .where(eq(apiKeys.hash, hash))
      .limit(1);
    // Unknown keys are not cached: a key created a moment ago by another process must work at once.
    if (!row) return undefined;
    const check: KeyCheck = row.revokedAt ? { ok: false, reason: 'revoked' } : { ok: true, key: { id: row.id, kind: row.kind, name: row.name, hash } };
    const entry: Cached = { check, expiresAt: row.expiresAt };
    if (this.cacheEnabled && this.forgets === forgets) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(hash, entry);
    }
    return entry;
  }

  /** Remembers use in memory; `flushUsage` writes it, so requests cost no write. */
  markUsed(key: ApiKey, at: Date = this.now()): void {
    this.usage.set(key.id, at);
  }

  async flushUsage(): Promise<void> {
    if (this.usage.size === 0) return;
    const used = [...this.usage].map(([id, at]) => ({ id, at: at.toISOString() }));
    this.usage.clear();
    const quiet = this.options.usageWrites;
    const leave = quiet?.enter();
    const update = sql`UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.at), u.at)
      FROM jsonb_to_recordset(${JSON.stringify(used)}::jsonb) AS u(id text, at timestamptz)
      WHERE k.id = u.id`;
    try {
      if (!quiet) await this.database.db.execute(update);
      else {
        // One transaction for every key used, whose id the fact cache is told before anything is written: a group
        // commit that sees it under way, unknown, trusts nothing it saw, and every cached entry is then compared
        // with its row again until refreshed (a 1,000 events/s probe proved next to no commit for 8 s after a flush
        // that met one, where told after its commit it came too late).
        await this.database.db.transaction(async (tx) => {
          const [taken] = await rows<{ xid: string }>(tx, sql`SELECT pg_current_xact_id()::text AS xid`);
          quiet.apart(BigInt(taken!.xid));
          await tx.execute(update);
        });
      }
    } catch (error) {
      quiet?.lost();
      throw error;
    } finally {
      leave?.();
    }
  }

  /** `expiresAt` null (the default): the key never expires. */
  async create(kind: KeyKind, name: string, db: Queryable = this.database.db, expiresAt: Date | null = null) {
    const minted = mintSecret(kind);
    const id = newId('key');
    const write = async (tx: Queryable) => {
      await tx.insert(apiKeys).values({ id, kind, name, hash: minted.hash, displayPrefix: minted.displayPrefix, expiresAt, createdAt: this.now() });
      await enqueueWebhookEvent(tx, {
        type: 'key.created',
        data: { key_id: id, kind, name, display_prefix: minted.displayPrefix, expires_at: expiresAt?.toISOString() ?? null },
      });
    };
    // The key and its announcement commit together; a caller's transaction is used as is.
    await (db === this.database.db ? this.database.db.transaction(write) : write(db));
    return { id, kind, name, key: minted.secret, display_prefix: minted.displayPrefix, expires_at: expiresAt?.toISOString() ?? null };
  }

  async list(id?: string): Promise<KeyListing[]> {
    const rows = await this.database.db
      .select()
      .from(apiKeys)
      .where(id === undefined ? undefined : eq(apiKeys.id, id))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    const now = this.now();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      display_prefix: r.displayPrefix,
      created_at: r.createdAt.toISOString(),
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
      revoked_at: r.revokedAt?.toISOString() ?? null,
      expires_at: r.expiresAt?.toISOString() ?? null,
      replaced_by: r.replacedBy,
      status: credentialState(r, now),
    }));
  }

  /**
   * Rotation: a new key of the same kind and name (its secret returned once, with the old one's lifetime), and the
   * old one kept working for `overlapHours` (default: the configured overlap), then refused like an expired key. Every process drops the old key from its cache, so the
   * overlap's end applies everywhere. `not_found` for no such key; `conflict` for one revoked, expired or already
   * rotated.
   */
  async rotate(id: string, overlapHours?: number | null) {
    const overlapMs = rotationOverlapMs(overlapHours, this.options.defaultOverlapHours ?? DEFAULT_OVERLAP_HOURS);
    const rotated = await this.database.db.transaction(async (tx) => {
      const [old] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for('update').limit(1);
      if (!old) throw new VigilError('not_found', `No key ${id}`);
      const now = this.now();
      const state = credentialState(old, now);
      if (state !== 'active') refuseRotation('key', state);
      const created = await this.create(old.kind, old.name, tx, carriedExpiry(old, now));
      const oldExpiresAt = overlapEnd(old.expiresAt, now, overlapMs);
      await tx.update(apiKeys).set({ expiresAt: oldExpiresAt, replacedBy: created.id }).where(eq(apiKeys.id, id));
      await tx.execute(sql`SELECT pg_notify(${KEY_REVOKED_CHANNEL}, ${old.hash})`);
      await (this.options.events ?? credentialWebhooks).rotated?.(tx, { kind: old.kind, id, replacedBy: created.id, name: old.name, oldExpiresAt, at: now });
      return { created, oldHash: old.hash };
    });
    this.forget(rotated.oldHash);
    const [previous] = await this.list(id);
    return { ...rotated.created, previous: previous! };
  }

  /**
   * Marks the keys whose expiry has passed and was not yet noticed; across processes each is noticed once (the row
   * update decides who). Refusal does not wait for this: `check` judges expiry itself. See auth/expiry-sweep.ts.
   */
  async noteExpired(tx: Tx): Promise<CredentialExpired[]> {
    const now = this.now();
    const noted = await tx
      .update(apiKeys)
      .set({ expiryNotedAt: now })
      .where(and(lte(apiKeys.expiresAt, now), isNull(apiKeys.expiryNotedAt), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, kind: apiKeys.kind, name: apiKeys.name, expiresAt: apiKeys.expiresAt, replacedBy: apiKeys.replacedBy });
    return noted.map((k) => ({ ...k, expiresAt: k.expiresAt! }));
  }

  /** Returns false when no such key exists; revoking twice is harmless. */
  async revoke(id: string): Promise<boolean> {
    const revoked = await this.database.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ hash: apiKeys.hash, revokedAt: apiKeys.revokedAt, kind: apiKeys.kind, name: apiKeys.name })
        .from(apiKeys)
        .where(eq(apiKeys.id, id))
        .limit(1);
      if (!row) return undefined;
      await tx
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
      await tx.execute(sql`SELECT pg_notify(${KEY_REVOKED_CHANNEL}, ${row.hash})`);
      if (!row.revokedAt) await enqueueWebhookEvent(tx, { type: 'key.revoked', data: { key_id: id, kind: row.kind, name: row.name } });
      return row.hash;
    });
    if (revoked === undefined) return false;
    this.forget(revoked);
    return true;
  }

  async count(db: Queryable = this.database.db): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
    return row?.n ?? 0;
  }
}
