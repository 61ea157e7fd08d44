import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('IdentityExport', { description: 'Everything Vigil holds about one identity (a data-protection access request).' })
export class IdentityExport {
  @Field(() => ID, { description: 'The entry in the data-request log.' })
  requestId!: string;

  @Field(() => Int)
  events!: number;

  @Field(() => GraphQLJSONObject, {
    description:
      'identity, exported_at, devices, registrations, registry_history, device_identities, contact_sightings {emails, phones, ips}, behavior_counters, events.',
  })
  record!: Record<string, unknown>;
}

@ObjectType('IdentityErasure', { description: 'What an identity erasure changed. The erased values themselves are never returned or logged.' })
export class IdentityErasure {
  @Field(() => ID, { description: 'The entry in the data-request log.' })
  requestId!: string;

  @Field(() => String, { description: 'What the identity was replaced with where history is kept (not logged).' })
  pseudonym!: string;

  @Field(() => GraphQLJSONObject, { description: 'How many e-mails, phones and IPs were found: {emails, phones, ips}.' })
  found!: Record<string, number>;

  @Field(() => GraphQLJSONObject, { description: 'Rows changed or deleted per table.' })
  changed!: Record<string, number>;
}

@ObjectType('DataRequest', { description: 'An export or erasure carried out, from the data-request log (the identity itself is not kept).' })
export class DataRequest {
  @Field(() => ID)
  id!: string;

  @Field(() => GraphQLISODateTime)
  at!: Date;

  @Field(() => String, { description: '`export` or `erase`.' })
  action!: string;

  @Field(() => String, { description: '`supervisor` or `cli`.' })
  actorKind!: string;

  @Field(() => String, { description: 'Username of the supervisor, or `cli:<os user>`.' })
  actorName!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Counts of what was exported or changed per table.' })
  detail!: Record<string, unknown> | null;
}
