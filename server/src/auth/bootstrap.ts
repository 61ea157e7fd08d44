import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/handle.js';
import type { KeyStore } from './key-store.js';
import { SupervisorStore } from './supervisor-store.js';

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

const ADMIN_BOOTSTRAP_LOCK = 0x76_61_64_6d; // "vadm"

/**
 * When no supervisor account exists, creates `admin` with a generated password so a new user can sign in to the
 * console and mint tokens. Returns the password for printing exactly once; undefined on every later start.
 */
export async function bootstrapAdmin(database: DatabaseHandle): Promise<{ username: string; password: string } | undefined> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADMIN_BOOTSTRAP_LOCK})`);
    const supervisors = new SupervisorStore(database);
    if ((await supervisors.count(tx)) > 0) return undefined;
    const created = await supervisors.create('admin', 'admin', undefined, tx);
    return { username: created.supervisor.username, password: created.password };
  });
}
