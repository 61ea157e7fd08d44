import { and, eq, sql } from 'drizzle-orm';
import { webhookMessages, webhookSubscriptions } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { newId } from '../ids.js';
import type { WebhookEventType, WebhookPayload } from './event-types.js';

/** The channel on which subscription changes (`subscriptions`) and new messages (`message`) are announced. */
export const WEBHOOKS_CHANNEL = 'vigil_webhooks';

/**
 * Writes a webhook message for every enabled subscription to `type`, in the caller's transaction: the message
 * exists exactly when the change it announces was committed. Meant for the rare, administrative changes (registry
 * moves, keys, accounts), so it reads the subscriptions in the transaction rather than trusting a cache; ingestion
 * uses the cached path (webhooks/ingest-outbox.ts). Returns how many messages were written.
 */
export async function enqueueWebhookEvent(tx: Queryable, event: { type: WebhookEventType; data: Record<string, unknown>; timestamp?: Date }): Promise<number> {
  const subscribers = await tx
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.enabled, true), sql`${event.type} = ANY(${webhookSubscriptions.eventTypes})`));
  if (subscribers.length === 0) return 0;
  const payload: WebhookPayload = { type: event.type, timestamp: (event.timestamp ?? new Date()).toISOString(), data: event.data };
  await tx
    .insert(webhookMessages)
    .values(subscribers.map((s) => ({ id: newId('msg'), subscriptionId: s.id, type: event.type, payload: payload as unknown as Record<string, unknown> })));
  return subscribers.length;
}
