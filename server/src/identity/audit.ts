import { createHmac, randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { dataRequests, type DataRequestRow } from '@vigil/drizzle/schema';
import type { Actor } from '../auth/account-audit.js';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { generateOnce } from '../js/secrets.js';
import { newId } from '../ids.js';

/** The generated secret under which identities are hashed in the data-request log. */
const KEY_NAME = 'data_request_key';

/**
 * The keyed hash that stands for an identity in the log: without the key (kept in the database, generated once)
 * a guessed identity cannot be checked against the log from a copy of the log alone; with it, an operator can
 * answer "was this person's request carried out" by hashing the identity again.
 */
export async function subjectHasher(database: DatabaseHandle): Promise<(identity: string) => string> {
  const key = Buffer.from(await generateOnce(database, KEY_NAME, () => randomBytes(32).toString('base64url')), 'base64url');
  return (identity) => createHmac('sha256', key).update(identity, 'utf8').digest('hex');
}

export type DataRequestAction = 'export' | 'erase';

export async function recordDataRequest(
  db: Queryable,
  actor: Actor,
  action: DataRequestAction,
  subjectHash: string,
  detail: Record<string, unknown>,
): Promise<string> {
  const id = newId('dsr');
  await db.insert(dataRequests).values({ id, action, subjectHash, actorKind: actor.kind, actorId: actor.id, actorName: actor.name, detail });
  return id;
}

/** The log of one identity's requests (by its hash), newest first. */
export function dataRequestsFor(db: Queryable, subjectHash: string): Promise<DataRequestRow[]> {
  return db.select().from(dataRequests).where(eq(dataRequests.subjectHash, subjectHash)).orderBy(desc(dataRequests.at), desc(dataRequests.id));
}
