import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

/** GraphQL enums are upper case; values map onto the config file's strings. */
export enum BehaviorOperationEnum {
  COUNT = 'count',
  SUM = 'sum',
  UNIQUE = 'unique',
}
registerEnumType(BehaviorOperationEnum, { name: 'BehaviorOperation', description: 'COUNT events, SUM a numeric property, or count UNIQUE values of a field.' });

export enum BehaviorFilterOperatorEnum {
  EQUALS = 'equals',
  NOT_EQUALS = 'not_equals',
  IN = 'in',
  EXISTS = 'exists',
  GT = 'gt',
  LT = 'lt',
}
registerEnumType(BehaviorFilterOperatorEnum, {
  name: 'BehaviorFilterOperator',
  description: 'EQUALS / NOT_EQUALS: one value; IN: a list; EXISTS: true (default) or false; GT / LT: a number.',
});

export enum BehaviorSourceEnum {
  CONFIG = 'config',
  ADMIN = 'admin',
}
registerEnumType(BehaviorSourceEnum, {
  name: 'BehaviorSource',
  description: 'CONFIG: the VIGIL_CONFIG file (change it there); ADMIN: defined through GraphQL.',
});

export enum BehaviorStatusEnum {
  BACKFILLING = 'backfilling',
  READY = 'ready',
}
registerEnumType(BehaviorStatusEnum, {
  name: 'BehaviorStatus',
  description: 'BACKFILLING: still counting stored events (answers may be low, with a behavior_backfilling warning); READY: exact.',
});

/**
 * One entry of a behavior's `filters`, as in the config file: either an event name (`event`) or a condition
 * (`field`, `operator`, `value`).
 */
@ObjectType('BehaviorFilter', { description: 'An event name (`event`) or a condition (`field`, `operator`, `value`); all must hold.' })
export class BehaviorFilter {
  @Field(() => String, { nullable: true, description: 'The event must have this name (event-name entries only).' })
  event!: string | null;

  @Field(() => String, { nullable: true, description: '`event`, `identity`, `device_id`, `ip_address` or `properties.<key>`.' })
  field!: string | null;

  @Field(() => BehaviorFilterOperatorEnum, { nullable: true })
  operator!: BehaviorFilterOperatorEnum | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'A string, number or boolean, or a list of them for IN.' })
  value!: unknown;
}

@ObjectType('Behavior', { description: 'A velocity counter (behavior) and its state.' })
export class Behavior {
  @Field(() => ID, { description: 'Hash of what the behavior counts: it changes (and backfills again) when that changes.' })
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String, { description: '`identity`, `device_id`, `handprint_id`, `ip_address`, `session_id` or `properties.<key>`.' })
  groupBy!: string;

  @Field(() => BehaviorOperationEnum)
  operation!: BehaviorOperationEnum;

  @Field(() => String, { nullable: true, description: 'SUM: `properties.<numeric key>`; UNIQUE: the field counted; COUNT: null.' })
  field!: string | null;

  @Field(() => Int)
  windowDurationSeconds!: number;

  @Field(() => [BehaviorFilter])
  filters!: BehaviorFilter[];

  @Field(() => Boolean, { description: 'UNIQUE only: responses also list the distinct values.' })
  returnValues!: boolean;

  @Field(() => BehaviorSourceEnum)
  source!: BehaviorSourceEnum;

  @Field(() => BehaviorStatusEnum)
  status!: BehaviorStatusEnum;

  @Field(() => Float, { description: 'Stored events the backfill has counted so far.' })
  backfilledEvents!: number;
}

@InputType('BehaviorFilterInput', { description: 'Either `event` alone (an event name) or `field` + `operator` (+ `value`): a condition.' })
export class BehaviorFilterInput {
  @Field(() => String, { nullable: true })
  event?: string | null;

  @Field(() => String, { nullable: true })
  field?: string | null;

  @Field(() => BehaviorFilterOperatorEnum, { nullable: true })
  operator?: BehaviorFilterOperatorEnum | null;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'JSON so numbers stay numbers: a string, number or boolean; a list of them for IN; a number for GT/LT.',
  })
  value?: unknown;
}

@InputType('BehaviorInput', { description: "A behavior definition: the config file's `behaviors` entry, in camelCase. Validated by the same rules." })
export class BehaviorInput {
  @Field(() => String, { description: 'Letters, digits and _, starting with a letter, at most 64.' })
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String)
  groupBy!: string;

  @Field(() => BehaviorOperationEnum)
  operation!: BehaviorOperationEnum;

  @Field(() => String, { nullable: true })
  field?: string | null;

  @Field(() => Int, { description: '1 to 7,776,000 (90 days).' })
  windowDurationSeconds!: number;

  @Field(() => [BehaviorFilterInput], { nullable: true })
  filters?: BehaviorFilterInput[] | null;

  @Field(() => Boolean, { nullable: true })
  returnValues?: boolean | null;
}
