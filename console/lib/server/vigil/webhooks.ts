import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
import type { ConsoleWebhookAttemptsQuery, ConsoleWebhooksQuery, WebhookSubscriptionInput } from './generated';

export type WebhooksPage = ConsoleWebhooksQuery;
export type WebhookAttempts = ConsoleWebhookAttemptsQuery['webhookAttempts'];

export function listWebhooks(token: string, subscriptionId: string | null, status: string | null): Promise<WebhooksPage> {
  return graphql<WebhooksPage>(token, documents.webhooks, { subscriptionId, status });
}

export async function webhookAttempts(token: string, messageId: string): Promise<WebhookAttempts> {
  return (await graphql<ConsoleWebhookAttemptsQuery>(token, documents.webhookAttempts, { messageId })).webhookAttempts;
}

export async function createWebhookSubscription(token: string, input: WebhookSubscriptionInput): Promise<{ secret: string; id: string }> {
  type Created = { createWebhookSubscription: { secret: string; subscription: { id: string } } };
  const created = (await graphql<Created>(token, documents.createWebhookSubscription, { input })).createWebhookSubscription;
  return { secret: created.secret, id: created.subscription.id };
}

export async function setWebhookEnabled(token: string, id: string, enabled: boolean): Promise<void> {
  await graphql(token, documents.updateWebhookSubscription, { id, input: { enabled } });
}

export async function deleteWebhookSubscription(token: string, id: string): Promise<void> {
  await graphql(token, documents.deleteWebhookSubscription, { id });
}

export async function redeliverWebhookMessage(token: string, id: string): Promise<{ status: number | null; durationMs: number; error: string | null }> {
  type Redelivered = { redeliverWebhookMessage: { status: number | null; durationMs: number; error: string | null } };
  return (await graphql<Redelivered>(token, documents.redeliverWebhookMessage, { id })).redeliverWebhookMessage;
}
