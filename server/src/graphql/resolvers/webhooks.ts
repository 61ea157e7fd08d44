import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { VigilError } from '../../errors.js';
import { webhookEventTypes } from '../../webhooks/event-types.js';
import type { CreateSubscriptionInput, UpdateSubscriptionInput } from '../../webhooks/subscriptions.js';
import type { GraphqlContext } from '../context.js';
import {
  CreatedWebhookSubscription,
  WebhookAttempt,
  WebhookMessage,
  WebhookRedelivery,
  WebhookSubscription,
  WebhookSubscriptionInput,
} from '../types/webhooks.js';

const MESSAGE_STATUSES = ['pending', 'delivered', 'dead', 'cancelled'] as const;

// Nullable GraphQL fields arrive as null (or undefined) when not given; the service reads absent and null as "not given".
const given = (input: WebhookSubscriptionInput) =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || k === 'scoreThreshold'))) as UpdateSubscriptionInput;

/** Webhook subscriptions, their delivery log and redelivery (admin). */
@Resolver()
export class WebhooksResolver {
  @Query(() => [WebhookSubscription], { description: 'Webhook subscriptions, newest first (admin).' })
  async webhookSubscriptions(@Ctx() ctx: GraphqlContext): Promise<WebhookSubscription[]> {
    ctx.require('admin');
    return ctx.services.webhooks.subscriptions.list();
  }

  @Query(() => [String], { description: 'The event types a subscription may ask for (admin).' })
  webhookEventTypes(@Ctx() ctx: GraphqlContext): string[] {
    ctx.require('admin');
    return [...webhookEventTypes];
  }

  @Mutation(() => CreatedWebhookSubscription, { description: 'Subscribe an endpoint to events; the signing secret is returned only here (admin).' })
  async createWebhookSubscription(@Ctx() ctx: GraphqlContext, @Arg('input', () => WebhookSubscriptionInput) input: WebhookSubscriptionInput) {
    ctx.require('admin');
    return ctx.services.webhooks.subscriptions.create(given(input) as CreateSubscriptionInput);
  }

  @Mutation(() => WebhookSubscription, { description: 'Change a subscription; enabled: true re-enables one a 410 disabled (admin).' })
  async updateWebhookSubscription(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => WebhookSubscriptionInput) input: WebhookSubscriptionInput,
  ) {
    ctx.require('admin');
    return ctx.services.webhooks.subscriptions.update(id, given(input));
  }

  @Mutation(() => WebhookSubscription, { description: 'Delete a subscription; its pending messages are cancelled, its log kept (admin).' })
  async deleteWebhookSubscription(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string) {
    ctx.require('admin');
    return ctx.services.webhooks.subscriptions.delete(id);
  }

  @Query(() => [WebhookMessage], { description: 'Webhook messages newest first; status `dead` lists the dead letters (admin).' })
  async webhookMessages(
    @Ctx() ctx: GraphqlContext,
    @Arg('subscriptionId', () => ID, { nullable: true }) subscriptionId: string | null,
    @Arg('status', () => String, { nullable: true }) status: string | null,
    @Arg('limit', () => Int, { defaultValue: 50 }) limit: number,
  ) {
    ctx.require('admin');
    if (status != null && !(MESSAGE_STATUSES as readonly string[]).includes(status)) {
      throw new VigilError('validation_failed', `status must be one of ${MESSAGE_STATUSES.join(', ')}`);
    }
    return ctx.services.webhooks.subscriptions.messages({
      subscriptionId: subscriptionId ?? undefined,
      status: (status ?? undefined) as (typeof MESSAGE_STATUSES)[number] | undefined,
      limit,
    });
  }

  @Query(() => [WebhookAttempt], { description: 'The delivery log of one message, oldest attempt first (admin).' })
  async webhookAttempts(@Ctx() ctx: GraphqlContext, @Arg('messageId', () => ID) messageId: string) {
    ctx.require('admin');
    return ctx.services.webhooks.subscriptions.attempts(messageId);
  }

  @Mutation(() => WebhookRedelivery, { description: 'Send a message again now, with the same webhook-id, and log the attempt (admin).' })
  async redeliverWebhookMessage(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string) {
    ctx.require('admin');
    const result = await ctx.services.webhooks.delivery.redeliver(id);
    if (!result) throw new VigilError('not_found', `No webhook message ${id}`);
    return result;
  }
}
