import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { AccountActionEnum, CredentialStateEnum, KeyKindEnum, SupervisorRoleEnum } from './enums.js';

@ObjectType('Key', { description: 'A write or client key (never its secret).' })
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

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it stops working; null: never. A rotation sets it to the end of the overlap.' })
  expiresAt!: Date | null;

  @Field(() => ID, { nullable: true, description: 'The key that replaced this one by rotation.' })
  replacedBy!: string | null;

  @Field(() => CredentialStateEnum)
  state!: CredentialStateEnum;
}

@ObjectType('CreatedKey')
export class CreatedKey {
  @Field(() => Key)
  key!: Key;

  @Field(() => String, { description: 'The key itself: shown only here.' })
  secret!: string;
}

@ObjectType('RotatedKey', { description: 'A rotation: the new key (its secret shown only here) and the old one, working until its expiresAt.' })
export class RotatedKey extends CreatedKey {
  @Field(() => Key)
  previous!: Key;
}

@ObjectType('Supervisor')
export class Supervisor {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  username!: string;

  @Field(() => SupervisorRoleEnum)
  role!: SupervisorRoleEnum;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Set while disabled: no sign-in, every session and token refused.' })
  disabledAt!: Date | null;
}

@ObjectType('CreatedSupervisor')
export class CreatedSupervisor {
  @Field(() => Supervisor)
  supervisor!: Supervisor;

  @Field(() => String, { nullable: true, description: 'The generated password, shown only here; null when one was given.' })
  password!: string | null;
}

/** What tokens and sessions share; only its subclasses are used, so the schema holds only them. */
@ObjectType('SupervisorCredential')
abstract class SupervisorCredential {
  @Field(() => ID)
  id!: string;

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

@ObjectType('Token', { description: 'An API token of a supervisor (never its secret).' })
export class Token extends SupervisorCredential {
  @Field(() => String)
  name!: string;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Null: never expires. A rotation sets it to the end of the overlap.' })
  expiresAt!: Date | null;

  @Field(() => ID, { nullable: true, description: 'The token that replaced this one by rotation.' })
  replacedBy!: string | null;

  @Field(() => CredentialStateEnum)
  state!: CredentialStateEnum;
}

@ObjectType('Session', {
  description: 'A console session of a supervisor (never its secret); ended by logout, an admin, a password reset or disabling the account.',
})
export class Session extends SupervisorCredential {
  @Field(() => GraphQLISODateTime)
  expiresAt!: Date;
}

@ObjectType('PasswordReset')
export class PasswordReset {
  @Field(() => Supervisor)
  supervisor!: Supervisor;

  @Field(() => String, { description: 'The new generated password, shown only here.' })
  password!: string;

  @Field(() => Int, { description: 'Console sessions of the account that ended.' })
  sessionsRevoked!: number;
}

@ObjectType('AccountActor', { description: 'Who changed an account: a supervisor, or the CLI on the server.' })
export class AccountActor {
  @Field(() => String, { description: 'supervisor or cli.' })
  kind!: string;

  @Field(() => ID, { nullable: true, description: 'The supervisor id; null for the CLI.' })
  id!: string | null;

  @Field(() => String, { description: 'The username as it was (cli:<os user> for the CLI).' })
  name!: string;
}

@ObjectType('AccountAuditRecord', { description: 'One change to an account or its credentials; kept after the account is deleted.' })
export class AccountAuditRecord {
  @Field(() => ID)
  id!: string;

  @Field(() => AccountActionEnum)
  action!: AccountActionEnum;

  @Field(() => AccountActor)
  actor!: AccountActor;

  @Field(() => ID, { description: 'Id of the account changed (it may no longer exist).' })
  supervisorId!: string;

  @Field(() => String, { description: 'Username of the account changed, as it was.' })
  username!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What changed, e.g. {from, to} of a role, a token id and name.' })
  detail!: Record<string, unknown> | null;

  @Field(() => GraphQLISODateTime)
  at!: Date;
}

@ObjectType('CreatedToken')
export class CreatedToken {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The token itself (Authorization: Bearer …): shown only here.' })
  token!: string;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Null: never expires.' })
  expiresAt!: Date | null;
}

@ObjectType('RotatedToken', { description: 'A token rotation: the new token (shown only here) and the old one, working until its expiresAt.' })
export class RotatedToken extends CreatedToken {
  @Field(() => Token)
  previous!: Token;
}
