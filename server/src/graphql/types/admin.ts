import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { KeyKindEnum, SupervisorRoleEnum } from './enums.js';

@ObjectType({ description: 'A write or client key (never its secret).' })
export class Key {
  @Field(() => ID)
  id!: string;

  @Field(() => KeyKindEnum)
  kind!: KeyKindEnum;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  displayPrefix!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  revokedAt!: Date | null;
}

@ObjectType()
export class CreatedKey {
  @Field(() => Key)
  key!: Key;

  @Field(() => String, { description: 'The key itself: shown only here.' })
  secret!: string;
}

@ObjectType()
export class Supervisor {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  username!: string;

  @Field(() => SupervisorRoleEnum)
  role!: SupervisorRoleEnum;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType()
export class CreatedSupervisor {
  @Field(() => Supervisor)
  supervisor!: Supervisor;

  @Field(() => String, { nullable: true, description: 'The generated password, shown only here; null when one was given.' })
  password!: string | null;
}

@ObjectType({ description: 'An API token of a supervisor (never its secret).' })
export class Token {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  username!: string;

  @Field(() => String)
  displayPrefix!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  revokedAt!: Date | null;
}

@ObjectType()
export class CreatedToken {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The token itself (Authorization: Bearer …): shown only here.' })
  token!: string;
}
