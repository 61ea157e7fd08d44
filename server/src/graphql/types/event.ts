import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageInfo } from './page-info.js';

@ObjectType({ description: 'A stored event and the tags and score it was answered with.' })
export class Event {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'Event name (login, transfer, …).' })
  name!: string;

  @Field(() => String, { nullable: true })
  identity!: string | null;

  @Field(() => String, { nullable: true })
  deviceId!: string | null;

  @Field(() => String)
  handprintId!: string;

  @Field(() => String, { nullable: true })
  sessionId!: string | null;

  @Field(() => String, { nullable: true })
  ip!: string | null;

  @Field(() => String, { nullable: true })
  userAgent!: string | null;

  @Field(() => [String])
  tags!: string[];

  @Field(() => Float)
  riskScore!: number;

  @Field(() => GraphQLJSONObject, { description: 'Properties exactly as received.' })
  properties!: Record<string, unknown>;

  @Field(() => GraphQLISODateTime)
  occurredAt!: Date;

  @Field(() => GraphQLISODateTime)
  receivedAt!: Date;
}

@ObjectType()
export class EventEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Event)
  node!: Event;
}

@ObjectType()
export class EventConnection {
  @Field(() => [EventEdge])
  edges!: EventEdge[];

  @Field(() => [Event])
  nodes!: Event[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'Events matching the filter, over every page.' })
  totalCount!: number;
}

@InputType({ description: 'Every field narrows the listing; from is inclusive, to exclusive (event time).' })
export class EventFilter {
  @Field(() => String, { nullable: true })
  deviceId?: string | null;

  @Field(() => String, { nullable: true })
  identity?: string | null;

  @Field(() => String, { nullable: true, description: 'Event name.' })
  event?: string | null;

  @Field(() => String, { nullable: true })
  tag?: string | null;

  @Field(() => Float, { nullable: true })
  minScore?: number | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  from?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  to?: Date | null;
}
