import { enqueueWebhookEvent } from '../webhooks/outbox.js';
import type { CredentialEvents } from './lifetimes.js';

/**
 * Rotations and expiries of keys and API tokens as `key.rotated` / `key.expired` messages, written in the
 * transaction that records them. `kind` says which credential (`write`, `client` or `token`); secrets never appear.
 */
export const credentialWebhooks: CredentialEvents = {
  async rotated(tx, e) {
    await enqueueWebhookEvent(tx, {
      type: 'key.rotated',
      timestamp: e.at,
      data: { key_id: e.id, kind: e.kind, name: e.name, replaced_by: e.replacedBy, old_key_expires_at: e.oldExpiresAt.toISOString() },
    });
  },
  async expired(tx, e) {
    await enqueueWebhookEvent(tx, {
      type: 'key.expired',
      data: { key_id: e.id, kind: e.kind, name: e.name, expired_at: e.expiresAt.toISOString(), replaced_by: e.replacedBy },
    });
  },
};
