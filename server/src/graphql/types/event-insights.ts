import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { DeviceStatusEnum } from './enums.js';

@ObjectType('EventBehavior', {
  description: "One behavior's value when the event was answered (`behaviors.<name>` of POST /events); fields its operation does not compute are null.",
})
export class EventBehavior {
  @Field(() => String, { description: 'Behavior name from the configuration.' })
  name!: string;

  @Field(() => Int, { nullable: true, description: 'count: events in the window.' })
  count!: number | null;

  @Field(() => Float, { nullable: true, description: 'sum: total of the summed property in the window.' })
  sum!: number | null;

  @Field(() => Int, { nullable: true, description: 'unique: distinct values in the window.' })
  unique!: number | null;

  @Field(() => [String], { nullable: true, description: 'The distinct values, where the behavior lists them.' })
  values!: string[] | null;
}

@ObjectType('ScoreContribution', { description: "One tag's part of the risk score (`score_breakdown`); contributions sum to the score." })
export class ScoreContribution {
  @Field(() => String)
  tag!: string;

  @Field(() => Float, { description: 'The weight configured for the tag.' })
  weight!: number;

  @Field(() => Float, { description: 'What the tag added to the score.' })
  contribution!: number;
}

@ObjectType('EventWarning', { description: 'Input Vigil could not use when it answered the event, e.g. an invalid ip_address.' })
export class EventWarning {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType('EmailIntel', { description: 'What Vigil knew of the e-mail address (`properties.email` or an e-mail identity) when it answered.' })
export class EmailIntel {
  @Field(() => String, { description: 'As given.' })
  address!: string;

  @Field(() => Boolean, { description: 'Practical syntax, as mail providers accept it.' })
  valid!: boolean;

  @Field(() => String, { nullable: true, description: 'Lowercased; sub-address (+tag) and Gmail dots dropped where the provider ignores them.' })
  normalized!: string | null;

  @Field(() => String, { nullable: true })
  domain!: string | null;

  @Field(() => Boolean, { description: 'A throwaway-mail domain.' })
  disposable!: boolean;

  @Field(() => Boolean, { description: 'A free mail provider.' })
  freeProvider!: boolean;

  @Field(() => Boolean, { description: 'A function mailbox (admin@, info@, …).' })
  roleAccount!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Earliest event time with this normalised address.' })
  firstSeen!: Date | null;

  @Field(() => Int, { description: 'Distinct devices (or handprints without one) seen with it.' })
  devicesSeen!: number;
}

@ObjectType('PhoneIntel', { description: 'What Vigil knew of the phone number (`properties.phone`) when it answered.' })
export class PhoneIntel {
  @Field(() => String, { description: 'As given.' })
  number!: string;

  @Field(() => Boolean)
  valid!: boolean;

  @Field(() => String, { nullable: true })
  e164!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2.' })
  country!: string | null;

  @Field(() => String, { nullable: true, description: 'mobile, fixed_line, voip, toll_free, …; null if unknown.' })
  lineType!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Earliest event time with this number.' })
  firstSeen!: Date | null;

  @Field(() => Int, { description: 'Distinct identities seen with it.' })
  identitiesSeen!: number;
}

@ObjectType('EventDeviceState', { description: 'The device as Vigil knew it when it answered the event (`device` of POST /events), not as it is now.' })
export class EventDeviceState {
  @Field(() => Boolean)
  isRegistered!: boolean;

  @Field(() => Boolean, { description: 'Registered, active, and no Critical or High tag.' })
  isTrusted!: boolean;

  @Field(() => String, { nullable: true, description: 'The user the device was registered to.' })
  registeredTo!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  registeredAt!: Date | null;

  @Field(() => String, { nullable: true })
  role!: string | null;

  @Field(() => String, { nullable: true, description: "The registration's metadata.branch." })
  branch!: string | null;

  @Field(() => GraphQLJSONObject, { description: "The registration's metadata." })
  metadata!: Record<string, unknown>;

  @Field(() => Int, { description: 'Whole days since the device was first seen.' })
  ageDays!: number;

  @Field(() => Boolean, { description: 'Younger than 24 hours.' })
  isNew!: boolean;

  @Field(() => String, { nullable: true })
  model!: string | null;

  @Field(() => String, { nullable: true })
  osVersion!: string | null;

  @Field(() => DeviceStatusEnum)
  status!: DeviceStatusEnum;
}
