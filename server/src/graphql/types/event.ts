import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { EmailIntel, EventBehavior, EventDeviceState, EventWarning, PhoneIntel, ScoreContribution } from './event-insights.js';
import { PageInfo } from './page-info.js';

export enum EventTimeFieldEnum {
  OCCURRED = 'occurred',
  RECEIVED = 'received',
}
registerEnumType(EventTimeFieldEnum, {
  name: 'EventTimeField',
  description: "Which time a filter's from/to bound: OCCURRED, the event's own time (an offline event's can be days old); RECEIVED, when Vigil received it.",
});

export enum EventOrderEnum {
  NEWEST_FIRST = 'newest_first',
  RECEIVED_ASC = 'received_asc',
}
registerEnumType(EventOrderEnum, {
  name: 'EventOrder',
  description:
    'NEWEST_FIRST: by event time, newest first. RECEIVED_ASC: in the order Vigil received events (ties by id), for incremental readers: ' +
    'an event synced late comes after every page already read, and events of the last VIGIL_REPORTING_SETTLE_MS are held back until they are surely stored, so a cursor never passes over one.',
});

@ObjectType('Event', { description: 'A stored event and the tags and score it was answered with.' })
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

  @Field(() => GraphQLISODateTime, { description: "The event's own time (magic property `timestamp`, default: receipt)." })
  occurredAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When Vigil received it.' })
  receivedAt!: Date;

  @Field(() => [EventBehavior], { description: 'Behavior values when the event was answered, by name.' })
  behaviors!: EventBehavior[];

  @Field(() => [ScoreContribution], { description: "Each tag's part of riskScore." })
  scoreBreakdown!: ScoreContribution[];

  @Field(() => EmailIntel, { nullable: true, description: 'Present when the event carried an e-mail address.' })
  emailIntel!: EmailIntel | null;

  @Field(() => PhoneIntel, { nullable: true, description: 'Present when the event carried a phone number.' })
  phoneIntel!: PhoneIntel | null;

  @Field(() => [EventWarning], { description: 'Input Vigil could not use.' })
  warnings!: EventWarning[];

  @Field(() => Int, { description: 'Whole days since the device (without a deviceId: the handprint) was first seen, when answered.' })
  deviceIdAgeDays!: number;

  @Field(() => EventDeviceState, { description: "The device's state and registration when the event was answered." })
  deviceState!: EventDeviceState;
}

@ObjectType('EventEdge')
export class EventEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Event)
  node!: Event;
}

@ObjectType('EventConnection')
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

@InputType('EventFilter', { description: 'Every field narrows the events; from is inclusive, to exclusive (of the time timeField names).' })
export class EventFilter {
  @Field(() => String, { nullable: true })
  deviceId?: string | null;

  @Field(() => String, { nullable: true })
  identity?: string | null;

  @Field(() => String, { nullable: true })
  handprintId?: string | null;

  @Field(() => String, { nullable: true, description: 'Event name.' })
  event?: string | null;

  @Field(() => String, { nullable: true })
  tag?: string | null;

  @Field(() => Float, { nullable: true, description: 'Inclusive.' })
  minScore?: number | null;

  @Field(() => Float, { nullable: true, description: 'Inclusive.' })
  maxScore?: number | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  from?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  to?: Date | null;

  @Field(() => EventTimeFieldEnum, { nullable: true, defaultValue: EventTimeFieldEnum.OCCURRED })
  timeField?: EventTimeFieldEnum | null;

  @Field(() => String, { nullable: true, description: "The device's registration metadata.branch when the event was answered." })
  branch?: string | null;

  @Field(() => String, { nullable: true, description: "The device's registered role when the event was answered." })
  role?: string | null;

  @Field(() => String, { nullable: true, description: 'The user the device was registered to when the event was answered.' })
  userId?: string | null;
}
