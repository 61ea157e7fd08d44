import type { DatabaseHandle } from '../db/handle.js';
import type { KeyStore } from './key-store.js';
import type { CredentialEvents, CredentialExpired } from './lifetimes.js';
import type { SupervisorStore } from './supervisor-store.js';
import { credentialWebhooks } from './credential-webhooks.js';

export interface ExpirySweepOptions {
  database: DatabaseHandle;
  keys: KeyStore;
  supervisors: SupervisorStore;
  /** Told of each expiry, in its transaction (default: announced as `key.expired` webhooks). */
  events?: CredentialEvents;
}

/**
 * Where an expiry "happens": keys and API tokens whose expiry (or rotation overlap) has passed are marked noticed
 * and `events.expired` is told of each, in the same transaction, once across every process. Refusing an expired
 * credential never waits for this; the sweep only records and announces it. Run with the key-usage flush.
 */
export async function sweepExpiries(options: ExpirySweepOptions): Promise<CredentialExpired[]> {
  return options.database.db.transaction(async (tx) => {
    const expired = [...(await options.keys.noteExpired(tx)), ...(await options.supervisors.noteExpiredTokens(tx))];
    for (const event of expired) await (options.events ?? credentialWebhooks).expired?.(tx, event);
    return expired;
  });
}
