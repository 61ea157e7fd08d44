import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/handle.js';
import type { KeyStore } from './key-store.js';

export interface FirstCredentials {
  writeKey: { id: string; key: string };
  clientKey: { id: string; key: string };
}

const BOOTSTRAP_LOCK = 0x76_62_6f_6f; // "vboo"

/**
 * On an empty database, creates the first write and client keys so a new user can post an event at once.
 * Returns them for printing exactly once; returns undefined on every later start. Serialised by an advisory lock
 * so two processes starting on one fresh PostgreSQL create one set, not two.
 */
export async function bootstrapCredentials(database: DatabaseHandle, keys: KeyStore): Promise<FirstCredentials | undefined> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    if ((await keys.count(tx)) > 0) return undefined;
    const write = await keys.create('write', 'first write key', tx);
    const client = await keys.create('client', 'first client key', tx);
    return { writeKey: { id: write.id, key: write.key }, clientKey: { id: client.id, key: client.key } };
  });
}
