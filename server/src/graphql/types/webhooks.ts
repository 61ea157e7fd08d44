import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('WebhookSubscription', { description: 'A webhook endpoint and the events it receives (never its secret).' })
export class WebhookSubscription {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  url!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [String], { description: 'Event types: device.tag_added, device.score_exceeded, device.registered, … (README, Webhooks).' })
  eventTypes!: string[];

  @Field(() => [String], { description: 'device.tag_added only for these tags; empty: any tag.' })
  tags!: string[];

  @Field(() => Float, { nullable: true, description: 'device.score_exceeded fires when a device score rises above this.' })
  scoreThreshold!: number | null;

  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: '`gone` (the receiver answered 410) or `operator`.' })
  disabledReason!: string | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType('CreatedWebhookSubscription')
export class CreatedWebhookSubscription {
  @Field(() => WebhookSubscription)
  subscription!: WebhookSubscription;

  @Field(() => String, { description: 'The signing secret (whsec_…, Standard Webhooks): shown only here.' })
  secret!: string;
}

@InputType('WebhookSubscriptionInput')
export class WebhookSubscriptionInput {
  @Field(() => String, { nullable: true })
  url?: string;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => [String], { nullable: true })
  eventTypes?: string[];

  @Field(() => [String], { nullable: true })
  tags?: string[];

  @Field(() => Float, { nullable: true })
  scoreThreshold?: number | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean;
}

@ObjectType('WebhookMessage', { description: 'One webhook message to one subscription: the outbox row and its delivery state.' })
export class WebhookMessage {
  @Field(() => ID, { description: 'Sent as webhook-id, the same on every attempt.' })
  id!: string;

  @Field(() => ID)
  subscriptionId!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String, { description: '`pending`, `delivered`, `dead` (attempts exhausted) or `cancelled`.' })
  status!: string;

  @Field(() => Int)
  attempts!: number;

  @Field(() => Int, { nullable: true })
  lastStatus!: number | null;

  @Field(() => GraphQLISODateTime)
  nextAttemptAt!: Date;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  deliveredAt!: Date | null;

  @Field(() => GraphQLJSONObject, { description: 'The body sent: {type, timestamp, data}.' })
  payload!: Record<string, unknown>;
}

@ObjectType('WebhookAttempt', { description: 'One delivery attempt, as the delivery log keeps it.' })
export class WebhookAttempt {
  @Field(() => ID)
  id!: string;

  @Field(() => Int)
  attempt!: number;

  @Field(() => Int, { nullable: true, description: 'HTTP status answered; null when none came.' })
  status!: number | null;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => String, { description: '`auto` or `manual` (a redelivery).' })
  trigger!: string;

  @Field(() => GraphQLISODateTime)
  at!: Date;
}

@ObjectType('WebhookRedelivery')
export class WebhookRedelivery {
  @Field(() => Int, { nullable: true })
  status!: number | null;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => String, { nullable: true })
  error!: string | null;
}
