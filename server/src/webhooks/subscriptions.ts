import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  webhookAttempts,
  webhookMessages,
  webhookSubscriptions,
  type WebhookAttemptRow,
  type WebhookMessageRow,
  type WebhookSubscriptionRow,
} from '@vigil/drizzle/schema';
import type { DatabaseHandle } from '../db/handle.js';
import { VigilError } from '../errors.js';
import { newId } from '../ids.js';
import { refuseEndpoint } from './address-guard.js';
import { webhookEventTypes } from './event-types.js';
import { newWebhookSecret } from './secret.js';

const fields = {
  url: z.string().trim().min(1).max(2048),
  description: z.string().max(500),
  eventTypes: z.array(z.enum(webhookEventTypes)).min(1).max(webhookEventTypes.length),
  tags: z.array(z.string().trim().min(1).max(64)).max(100),
  scoreThreshold: z.number().min(0).max(1).nullable(),
  enabled: z.boolean(),
};

const createInput = z.object({
  ...fields,
  enabled: fields.enabled.default(true),
  description: fields.description.default(''),
  tags: fields.tags.default([]),
  scoreThreshold: fields.scoreThreshold.default(null),
});
const updateInput = z.object(fields).partial();

export type CreateSubscriptionInput = z.input<typeof createInput>;
export type UpdateSubscriptionInput = z.input<typeof updateInput>;
export type WebhookSubscription = Omit<WebhookSubscriptionRow, 'secret'>;

const withoutSecret = ({ secret: _secret, ...rest }: WebhookSubscriptionRow): WebhookSubscription => rest;

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new VigilError('validation_failed', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
}

export interface WebhookSubscriptionsOptions {
  database: DatabaseHandle;
  /** VIGIL_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Called after each change, so this process's cache need not wait for the notification. */
  changed?: () => Promise<void>;
}

/** Managing subscriptions and reading their delivery log: what GraphQL, the CLI and the console call. */
export class WebhookSubscriptions {
  constructor(private readonly options: WebhookSubscriptionsOptions) {}

  private get db() {
    return this.options.database.db;
  }

  /** Creates a subscription; its secret is returned here only. */
  async create(input: CreateSubscriptionInput): Promise<{ subscription: WebhookSubscription; secret: string }> {
    const values = parse(createInput, input);
    this.checkFilters(values.eventTypes, values.scoreThreshold);
    await this.checkUrl(values.url);
    const secret = newWebhookSecret();
    const [row] = await this.db
      .insert(webhookSubscriptions)
      .values({ id: newId('whs'), ...values, secret })
      .returning();
    await this.options.changed?.();
    return { subscription: withoutSecret(row!), secret };
  }

  async list(): Promise<WebhookSubscription[]> {
    const rows = await this.db.select().from(webhookSubscriptions).orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id));
    return rows.map(withoutSecret);
  }

  async get(id: string): Promise<WebhookSubscription> {
    const [row] = await this.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).limit(1);
    if (!row) throw new VigilError('not_found', `No webhook subscription ${id}`);
    return withoutSecret(row);
  }

  /** Changes what is given; enabling clears the reason it was disabled. */
  async update(id: string, input: UpdateSubscriptionInput): Promise<WebhookSubscription> {
    const patch = parse(updateInput, input);
    const current = await this.get(id);
    this.checkFilters(patch.eventTypes ?? current.eventTypes, patch.scoreThreshold === undefined ? current.scoreThreshold : patch.scoreThreshold);
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    const reason = patch.enabled === undefined ? {} : { disabledReason: patch.enabled ? null : 'operator' };
    const [row] = await this.db
      .update(webhookSubscriptions)
      .set({ ...patch, ...reason, updatedAt: sql`now()` })
      .where(eq(webhookSubscriptions.id, id))
      .returning();
    await this.options.changed?.();
    return withoutSecret(row!);
  }

  /** Deletes a subscription; its pending messages are cancelled, its delivery log is kept. */
  async delete(id: string): Promise<WebhookSubscription> {
    const row = await this.db.transaction(async (tx) => {
      const [deleted] = await tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).returning();
      if (!deleted) throw new VigilError('not_found', `No webhook subscription ${id}`);
      await tx
        .update(webhookMessages)
        .set({ status: 'cancelled' })
        .where(and(eq(webhookMessages.subscriptionId, id), eq(webhookMessages.status, 'pending')));
      return deleted;
    });
    await this.options.changed?.();
    return withoutSecret(row);
  }

  /** Messages newest first, of one subscription or all, optionally in one status (`dead`: the dead letters). */
  async messages(filter: { subscriptionId?: string; status?: WebhookMessageRow['status']; limit: number }): Promise<WebhookMessageRow[]> {
    return this.db
      .select()
      .from(webhookMessages)
      .where(
        and(
          filter.subscriptionId === undefined ? undefined : eq(webhookMessages.subscriptionId, filter.subscriptionId),
          filter.status === undefined ? undefined : eq(webhookMessages.status, filter.status),
        ),
      )
      .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
      .limit(Math.min(Math.max(filter.limit, 1), 500));
  }

  /** The delivery log of one message, oldest attempt first. */
  async attempts(messageId: string): Promise<WebhookAttemptRow[]> {
    return this.db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, messageId)).orderBy(webhookAttempts.at, webhookAttempts.id);
  }

  private checkFilters(eventTypes: readonly string[], scoreThreshold: number | null): void {
    if (eventTypes.includes('device.score_exceeded') && scoreThreshold === null) {
      throw new VigilError('validation_failed', 'scoreThreshold: device.score_exceeded needs a threshold (0..1)', {
        errors: [{ path: 'scoreThreshold', message: 'required with device.score_exceeded' }],
      });
    }
  }

  private async checkUrl(url: string): Promise<void> {
    const refused = await refuseEndpoint(url, this.options.allowPrivate);
    if (refused) throw new VigilError('webhook_endpoint_refused', `The endpoint ${url} ${refused}`, { errors: [{ path: 'url', message: refused }] });
  }
}
