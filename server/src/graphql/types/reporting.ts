import { Field, Float, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BucketEnum, DeviceStatusEnum } from './enums.js';

@ObjectType('TagCount')
export class TagCount {
  @Field(() => String)
  tag!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType('RiskBucket')
export class RiskBucket {
  @Field(() => GraphQLISODateTime)
  start!: Date;

  @Field(() => Int)
  eventCount!: number;

  @Field(() => Float, { nullable: true, description: 'Mean risk score; null without events.' })
  meanScore!: number | null;

  @Field(() => [TagCount])
  tagCounts!: TagCount[];
}

@ObjectType('RiskSummary')
export class RiskSummary {
  @Field(() => GraphQLISODateTime)
  from!: Date;

  @Field(() => GraphQLISODateTime)
  to!: Date;

  @Field(() => BucketEnum)
  bucket!: BucketEnum;

  @Field(() => [RiskBucket], { description: 'Every bucket in the range, empty ones included, oldest first.' })
  buckets!: RiskBucket[];
}

@ObjectType('FacetValue')
export class FacetValue {
  @Field(() => String)
  value!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType('Facets', { description: 'Values in use, for filters: roles, branches and statuses of devices, tags of the last 30 days of events.' })
export class Facets {
  @Field(() => [FacetValue])
  roles!: FacetValue[];

  @Field(() => [FacetValue])
  branches!: FacetValue[];

  @Field(() => [FacetValue])
  statuses!: FacetValue[];

  @Field(() => [FacetValue])
  tags!: FacetValue[];
}

export enum EventGroupKeyEnum {
  TAG = 'tag',
  EVENT = 'event',
  BRANCH = 'branch',
  ROLE = 'role',
  USER = 'user',
}
registerEnumType(EventGroupKeyEnum, {
  name: 'EventGroupKey',
  description:
    "What eventStats groups by. TAG: an event counts under each of its tags (an event without tags under null). BRANCH, ROLE, USER: the device's registration when the event was answered.",
});

export enum TimeBucketEnum {
  HOUR = 'hour',
  DAY = 'day',
  WEEK = 'week',
}
registerEnumType(TimeBucketEnum, { name: 'TimeBucket', description: 'Width of an eventStats time bucket, in its time zone; weeks start on Monday.' });

export enum DeviceGroupKeyEnum {
  STATUS = 'status',
  ROLE = 'role',
  BRANCH = 'branch',
  TAG = 'tag',
}
registerEnumType(DeviceGroupKeyEnum, {
  name: 'DeviceGroupKey',
  description: "What deviceStats groups by. TAG: the tags of the device's latest event (a device counts under each; without any, under null).",
});

@ObjectType('EventStatsRow', { description: 'One group of eventStats. Keys not grouped by are null; so is a grouped key the events lack.' })
export class EventStatsRow {
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Start of the time bucket, when grouped by one.' })
  bucket!: Date | null;

  @Field(() => String, { nullable: true })
  tag!: string | null;

  @Field(() => String, { nullable: true, description: 'Event name.' })
  event!: string | null;

  @Field(() => String, { nullable: true })
  branch!: string | null;

  @Field(() => String, { nullable: true })
  role!: string | null;

  @Field(() => String, { nullable: true, description: 'Registered user.' })
  userId!: string | null;

  @Field(() => Int)
  count!: number;

  @Field(() => Float, { nullable: true, description: 'Mean risk score; null without events.' })
  meanScore!: number | null;

  @Field(() => Float, { nullable: true })
  maxScore!: number | null;

  @Field(() => Int, { description: 'Distinct device ids among the events (events without one are not counted).' })
  distinctDevices!: number;
}

@ObjectType('DeviceStatsRow', { description: 'One group of deviceStats. Keys not grouped by are null; so is a grouped key the devices lack.' })
export class DeviceStatsRow {
  @Field(() => DeviceStatusEnum, { nullable: true })
  status!: DeviceStatusEnum | null;

  @Field(() => String, { nullable: true })
  role!: string | null;

  @Field(() => String, { nullable: true })
  branch!: string | null;

  @Field(() => String, { nullable: true })
  tag!: string | null;

  @Field(() => Int)
  count!: number;
}
