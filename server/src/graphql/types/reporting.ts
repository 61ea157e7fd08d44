import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { BucketEnum } from './enums.js';

@ObjectType()
export class TagCount {
  @Field(() => String)
  tag!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType()
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

@ObjectType()
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

@ObjectType()
export class FacetValue {
  @Field(() => String)
  value!: string;

  @Field(() => Int)
  count!: number;
}

@ObjectType({ description: 'Values in use, for filters: roles, branches and statuses of devices, tags of the last 30 days of events.' })
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
