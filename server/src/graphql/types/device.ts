import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AuditActionEnum, BulkOutcomeEnum, DeviceStatusEnum } from './enums.js';
import type { BindingSummary } from '../../binding/store.js';
import type { DeviceSummary } from '../../registry/listing.js';
import { PageInfo } from './page-info.js';

@ObjectType('Registration', { description: 'A registration: who the device belongs to, with what role, and its state.' })
export class Registration {
  @Field(() => String)
  userId!: string;

  @Field(() => String, { nullable: true, description: 'metadata.role at registration.' })
  role!: string | null;

  @Field(() => String, { nullable: true, description: 'metadata.branch, when given.' })
  branch!: string | null;

  @Field(() => GraphQLJSONObject)
  metadata!: Record<string, unknown>;

  @Field(() => DeviceStatusEnum)
  status!: DeviceStatusEnum;

  @Field(() => GraphQLISODateTime)
  registeredAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'Start of the current association (registration or latest transfer).' })
  associatedSince!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  deactivatedAt!: Date | null;

  @Field(() => String, { nullable: true })
  deactivationReason!: string | null;

  @Field(() => String, { nullable: true })
  deactivatedBy!: string | null;
}

@ObjectType('DeviceBinding', { description: 'The key a device is bound to (README, "Device binding") and what its attestation chain proved.' })
export class DeviceBinding implements Omit<BindingSummary, 'deviceId'> {
  @Field(() => String, { description: 'Base64url SHA-256 of the bound key (SPKI DER), as the device sends it in Vigil-Device-Key-Id.' })
  keyId!: string;

  @Field(() => String, { description: 'What the chain proved: strongbox, hardware (the TEE), software, or unverified (see attestationProblem).' })
  attestation!: BindingSummary['attestation'];

  @Field(() => String, { nullable: true, description: 'Why the chain proved no more (no_chain, wrong_root, expired, …); null when it verified.' })
  attestationProblem!: string | null;

  @Field(() => GraphQLISODateTime)
  boundAt!: Date;
}

@ObjectType('Actor', { description: 'Who was authenticated when a registry change was made.' })
export class Actor {
  @Field(() => String, { description: 'write_key, client_key or supervisor.' })
  kind!: string;

  @Field(() => String)
  id!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('AuditRecord', { description: 'One change to a registration (or a refused registration).' })
export class AuditRecord {
  @Field(() => ID)
  id!: string;

  @Field(() => AuditActionEnum)
  action!: AuditActionEnum;

  @Field(() => String)
  deviceId!: string;

  @Field(() => String, { nullable: true })
  fromUser!: string | null;

  @Field(() => String, { nullable: true })
  toUser!: string | null;

  @Field(() => String, { nullable: true })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'The `by` given with the change.' })
  by!: string | null;

  @Field(() => Actor)
  actor!: Actor;

  @Field(() => GraphQLJSONObject, { nullable: true })
  metadata!: Record<string, unknown> | null;

  @Field(() => GraphQLISODateTime)
  at!: Date;
}

@ObjectType('DeviceChange', { description: 'What a registry mutation did to a device.' })
export class DeviceChange {
  @Field(() => Boolean, { description: 'False when the device already was as asked: nothing was written.' })
  changed!: boolean;

  @Field(() => String, { description: 'What changed, or why nothing did (e.g. "already deactivated since …; reason kept (…)").' })
  message!: string;
}

/**
 * The registry's device (registry/listing.ts DeviceSummary) as it is, not a copy mapped field by field: the REST view
 * (registry/views.ts deviceView) and this type read the same record. Registration, tags, history and events are
 * resolved per field, batched by DataLoader across a page.
 */
@ObjectType('Device', { description: 'A device: seen in events, registered, or both.' })
export class Device implements Omit<DeviceSummary, 'registration'> {
  @Field(() => ID, { name: 'id', description: "The caller's device_id." })
  deviceId!: string;

  @Field(() => DeviceStatusEnum)
  status!: DeviceSummary['status'];

  @Field(() => GraphQLISODateTime, { nullable: true })
  firstSeen!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastSeen!: Date | null;

  @Field(() => String, { nullable: true })
  handprintId!: string | null;

  @Field(() => String, { nullable: true })
  model!: string | null;

  @Field(() => String, { nullable: true })
  osVersion!: string | null;

  @Field(() => DeviceChange, {
    nullable: true,
    description: 'On the device a mutation answers: whether that mutation changed it and what it did; null elsewhere.',
  })
  change?: DeviceChange | null;
}

@ObjectType('BulkDeviceResult', { description: "One device's result in a bulk mutation." })
export class BulkDeviceResult {
  @Field(() => ID)
  deviceId!: string;

  @Field(() => BulkOutcomeEnum)
  outcome!: BulkOutcomeEnum;

  @Field(() => String, { description: 'What changed, or why nothing did.' })
  message!: string;

  @Field(() => Device, { nullable: true, description: 'The device after the mutation; null when not found.' })
  device!: Device | null;
}

@ObjectType('DeviceEdge')
export class DeviceEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Device)
  node!: Device;
}

@ObjectType('DeviceConnection')
export class DeviceConnection {
  @Field(() => [DeviceEdge])
  edges!: DeviceEdge[];

  @Field(() => [Device])
  nodes!: Device[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'Devices matching the filter, over every page.' })
  totalCount!: number;
}

@InputType('DeviceFilter')
export class DeviceFilter {
  @Field(() => String, { nullable: true })
  role?: string | null;

  @Field(() => String, { nullable: true, description: 'Registration metadata branch.' })
  branch?: string | null;

  @Field(() => DeviceStatusEnum, { nullable: true })
  status?: DeviceStatusEnum | null;

  @Field(() => String, { nullable: true })
  userId?: string | null;

  @Field(() => String, { nullable: true, description: "A tag of the device's latest event." })
  tag?: string | null;

  @Field(() => String, { nullable: true, description: 'Device ids starting with this text (case-sensitive; % and _ are literal).' })
  idPrefix?: string | null;

  @Field(() => String, { nullable: true, description: 'Registered user ids starting with this text (case-sensitive; % and _ are literal).' })
  userIdPrefix?: string | null;
}
