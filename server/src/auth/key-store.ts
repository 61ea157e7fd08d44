import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys } from '@vigil/drizzle/schema';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { newId } from '../ids.js';
import { enqueueWebhookEvent } from '../webhooks/outbox.js';
import { mintSecret, sha256Hex } from './secrets.js';

export type KeyKind = 'write' | 'client';

/** An authenticated key, as request handlers see it. */
export interface ApiKey {
  id: string;
  kind: KeyKind;
  name: string;
  hash: string;
}

/** Authentication is an expected outcome, so it is data, not an exception. */
export type KeyCheck =
  | { ok: true; key: ApiKey }
  | { ok: false; reason: 'unknown' | 'revoked' };

export interface KeyListing {
  id: string;
  kind: KeyKind;
  name: string;
  display_prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked';
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
  private readonly cache = new Map<string, KeyCheck>();
  private cacheEnabled = false;
  private readonly usage = new Map<string, Date>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly database: DatabaseHandle) {}

  async start(onLost: (error: Error) => void = () => {}, onRestored: () => void = () => {}): Promise<void> {
    this.unlisten = await this.database.listen(
      KEY_REVOKED_CHANNEL,
      (hash) => this.cache.delete(hash),
      (error) => {
        this.cacheEnabled = false;
        this.cache.clear();
        onLost(error);
      },
      // Revocations sent while the channel was down were missed: start from an empty cache.
      () => {
        this.cache.clear();
        this.cacheEnabled = true;
        onRestored();
      },
    );
    this.cacheEnabled = true;
  }

  async stop(): Promise<void> {
    this.cacheEnabled = false;
    await this.unlisten?.();
    await this.flushUsage();
  }

  async check(presented: string): Promise<KeyCheck> {
    const hash = sha256Hex(presented);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const [row] = await this.database.db
      .select({ id: apiKeys.id, kind: apiKeys.kind, name: apiKeys.name, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.hash, hash))
      .limit(1);
    // Unknown keys are not cached: a key created a moment ago by another process must work at once.
    if (!row) return { ok: false, reason: 'unknown' };
    const result: KeyCheck = row.revokedAt
      ? { ok: false, reason: 'revoked' }
      : { ok: true, key: { id: row.id, kind: row.kind, name: row.name, hash } };
    if (this.cacheEnabled) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(hash, result);
    }
    return result;
  }

  /** Remembers use in memory; `flushUsage` writes it, so requests cost no write. */
  markUsed(key: ApiKey, at: Date = new Date()): void {
    this.usage.set(key.id, at);
  }

  async flushUsage(): Promise<void> {
    if (this.usage.size === 0) return;
    const entries = [...this.usage];
    this.usage.clear();
    for (const [id, at] of entries) {
      await this.database.db
        .update(apiKeys)
        .set({ lastUsedAt: sql`GREATEST(COALESCE(${apiKeys.lastUsedAt}, ${at}), ${at})` })
        .where(eq(apiKeys.id, id));
    }
  }

  async create(kind: KeyKind, name: string, db: Queryable = this.database.db) {
    const minted = mintSecret(kind);
    const id = newId('key');
    const write = async (tx: Queryable) => {
      await tx.insert(apiKeys).values({ id, kind, name, hash: minted.hash, displayPrefix: minted.displayPrefix });
      await enqueueWebhookEvent(tx, { type: 'key.created', data: { key_id: id, kind, name, display_prefix: minted.displayPrefix } });
    };
    // The key and its announcement commit together; a caller's transaction is used as is.
    await (db === this.database.db ? this.database.db.transaction(write) : write(db));
    return { id, kind, name, key: minted.secret, display_prefix: minted.displayPrefix };
  }

  async list(): Promise<KeyListing[]> {
    const rows = await this.database.db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      display_prefix: r.displayPrefix,
      created_at: r.createdAt.toISOString(),
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
      revoked_at: r.revokedAt?.toISOString() ?? null,
      status: r.revokedAt ? 'revoked' : 'active',
    }));
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
    this.cache.delete(revoked);
    return true;
  }

  async count(db: Queryable = this.database.db): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
    return row?.n ?? 0;
  }
}
