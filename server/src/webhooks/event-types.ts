/**
 * The event types a subscription may ask for (final names, shared with the other streams). Device events come from
 * ingestion and the registry; key and account events from the admin paths.
 */
export const webhookEventTypes = [
  'device.tag_added',
  'device.score_exceeded',
  'device.registered',
  'device.deactivated',
  'device.transferred',
  'device.reactivated',
  'device.registration_conflict',
  'key.created',
  'key.revoked',
  'key.rotated',
  'key.expired',
  'account.created',
  'account.updated',
  'account.deleted',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export const isWebhookEventType = (value: unknown): value is WebhookEventType =>
  typeof value === 'string' && (webhookEventTypes as readonly string[]).includes(value);

/** The types decided by ingestion, per event, against the device's previous state. */
export const ingestEventTypes = ['device.tag_added', 'device.score_exceeded'] as const satisfies readonly WebhookEventType[];

/** The Standard Webhooks body: `{type, timestamp, data}`. `timestamp` is when the change happened. */
export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}
