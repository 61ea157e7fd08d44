import { Arg, Ctx, Float, GraphQLISODateTime, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { supervisorActor } from '../../auth/account-audit.js';
import type { KeyListing } from '../../auth/key-store.js';
import { credentialState } from '../../auth/lifetimes.js';
import type { CredentialListing, Supervisor as SupervisorRecord } from '../../auth/supervisor-store.js';
import { tokenExpiry } from '../../auth/token-expiry.js';
import { VigilError } from '../../errors.js';
import type { GraphqlContext } from '../context.js';
import { CreatedKey, CreatedSupervisor, CreatedToken, Key, RotatedKey, RotatedToken, Supervisor, Token } from '../types/admin.js';
import { CredentialStateEnum, KeyKindEnum, SupervisorRoleEnum } from '../types/enums.js';

const toKey = (k: KeyListing): Key => ({
  id: k.id,
  kind: k.kind as KeyKindEnum,
  name: k.name,
  displayPrefix: k.display_prefix,
  createdAt: new Date(k.created_at),
  lastUsedAt: k.last_used_at ? new Date(k.last_used_at) : null,
  revokedAt: k.revoked_at ? new Date(k.revoked_at) : null,
  expiresAt: k.expires_at ? new Date(k.expires_at) : null,
  replacedBy: k.replaced_by,
  state: k.status as CredentialStateEnum,
});

export const toSupervisor = (s: SupervisorRecord): Supervisor => ({
  id: s.id,
  username: s.username,
  role: s.role as SupervisorRoleEnum,
  createdAt: s.createdAt,
  disabledAt: s.disabledAt,
});

const toToken = (t: CredentialListing): Token => ({
  id: t.id,
  name: t.name,
  username: t.username,
  displayPrefix: t.displayPrefix,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
  replacedBy: t.replacedBy,
  state: credentialState(t, new Date()) as CredentialStateEnum,
});

const overlapArg = {
  nullable: true,
  description: 'Hours the old one keeps working beside the new one (0 to 720; 0: it stops at once). Default: VIGIL_KEY_ROTATION_OVERLAP_HOURS (24).',
} as const;

const name = (value: string, field: string) => {
  if (value.length < 1 || value.length > 200) {
    throw new VigilError('validation_failed', `${field} must be 1 to 200 characters`, { errors: [{ path: field, message: 'must be 1 to 200 characters' }] });
  }
  return value;
};

/** Account and credential management: everything here but `me` is admin only. */
@Resolver()
export class AdminResolver {
  @Query(() => Supervisor, { description: 'The signed-in supervisor.' })
  me(@Ctx() ctx: GraphqlContext): Supervisor {
    return toSupervisor(ctx.principal.supervisor);
  }

  @Query(() => [Key], { description: 'Write and client keys (admin).' })
  async keys(@Ctx() ctx: GraphqlContext): Promise<Key[]> {
    ctx.require('admin');
    return (await ctx.services.keys.list()).map(toKey);
  }

  @Mutation(() => CreatedKey, { description: 'Create a key; its secret is returned only here (admin). Without expiresAt or expiresInDays it never expires.' })
  async createKey(
    @Ctx() ctx: GraphqlContext,
    @Arg('kind', () => KeyKindEnum) kind: KeyKindEnum,
    @Arg('name', () => String) keyName: string,
    @Arg('expiresAt', () => GraphQLISODateTime, { nullable: true, description: 'When it stops working (in the future).' }) expiresAt: Date | null,
    @Arg('expiresInDays', () => Int, { nullable: true, description: 'Days until it stops working; 0: never.' }) expiresInDays: number | null,
  ): Promise<CreatedKey> {
    ctx.require('admin');
    const expiry = tokenExpiry({ expiresAt, expiresInDays }, 0, new Date());
    const created = await ctx.services.keys.create(kind, name(keyName, 'name'), undefined, expiry);
    const [listed] = await ctx.services.keys.list(created.id);
    return { key: toKey(listed!), secret: created.key };
  }

  @Mutation(() => RotatedKey, {
    description:
      'Rotate a key: a new key of the same kind, name and lifetime (its secret returned only here), while the old one keeps working for the overlap and is then refused like an expired key (admin).',
  })
  async rotateKey(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => ID) id: string,
    @Arg('overlapHours', () => Float, overlapArg) overlapHours: number | null,
  ): Promise<RotatedKey> {
    ctx.require('admin');
    const rotated = await ctx.services.keys.rotate(id, overlapHours);
    const [listed] = await ctx.services.keys.list(rotated.id);
    return { key: toKey(listed!), secret: rotated.key, previous: toKey(rotated.previous) };
  }

  @Mutation(() => Key, { description: 'Revoke a key at once, in every process (admin).' })
  async revokeKey(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string): Promise<Key> {
    ctx.require('admin');
    if (!(await ctx.services.keys.revoke(id))) throw new VigilError('not_found', `No key ${id}`);
    return toKey((await ctx.services.keys.list()).find((k) => k.id === id)!);
  }

  @Query(() => [Supervisor], { description: 'Supervisor accounts (admin).' })
  async supervisors(@Ctx() ctx: GraphqlContext): Promise<Supervisor[]> {
    ctx.require('admin');
    return (await ctx.services.supervisors.list()).map(toSupervisor);
  }

  @Mutation(() => CreatedSupervisor, { description: 'Create an account; without a password one is generated and returned once (admin).' })
  async createSupervisor(
    @Ctx() ctx: GraphqlContext,
    @Arg('username', () => String) username: string,
    @Arg('role', () => SupervisorRoleEnum) role: SupervisorRoleEnum,
    @Arg('password', () => String, { nullable: true, description: 'At least 12 characters.' }) password: string | null,
  ): Promise<CreatedSupervisor> {
    ctx.require('admin');
    const created = await ctx.services.accounts.create(supervisorActor(ctx.principal.supervisor), username, role, password ?? undefined);
    return { supervisor: toSupervisor(created.supervisor), password: password ? null : created.password };
  }

  @Query(() => [Token], { description: 'API tokens of every supervisor, or of one (admin).' })
  async tokens(@Ctx() ctx: GraphqlContext, @Arg('username', () => String, { nullable: true }) username: string | null): Promise<Token[]> {
    ctx.require('admin');
    return (await ctx.services.accounts.credentials('token', username ?? undefined)).map(toToken);
  }

  @Mutation(() => CreatedToken, {
    description:
      'Create an API token for a supervisor; it is returned only here (admin). Without expiresAt or expiresInDays it expires after VIGIL_API_TOKEN_DEFAULT_TTL_DAYS.',
  })
  async createToken(
    @Ctx() ctx: GraphqlContext,
    @Arg('username', () => String) username: string,
    @Arg('name', () => String, { nullable: true, defaultValue: 'api' }) tokenName: string,
    @Arg('expiresAt', () => GraphQLISODateTime, { nullable: true, description: 'When it stops working (in the future).' }) expiresAt: Date | null,
    @Arg('expiresInDays', () => Int, { nullable: true, description: 'Days until it stops working; 0: never.' }) expiresInDays: number | null,
  ): Promise<CreatedToken> {
    ctx.require('admin');
    const actor = supervisorActor(ctx.principal.supervisor);
    const created = await ctx.services.accounts.createToken(actor, username, name(tokenName, 'name'), { expiresAt, expiresInDays });
    return { id: created.id, token: created.token, expiresAt: created.expiresAt };
  }

  @Mutation(() => RotatedToken, {
    description:
      'Rotate an API token: a new token for the same account, name and lifetime (returned only here), while the old one keeps working for the overlap (admin).',
  })
  async rotateToken(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => ID) id: string,
    @Arg('overlapHours', () => Float, overlapArg) overlapHours: number | null,
  ): Promise<RotatedToken> {
    ctx.require('admin');
    const rotated = await ctx.services.accounts.rotateToken(supervisorActor(ctx.principal.supervisor), id, overlapHours);
    return { id: rotated.id, token: rotated.token, expiresAt: rotated.expiresAt, previous: toToken(rotated.previous) };
  }

  @Mutation(() => Token, { description: 'Revoke an API token at once (admin).' })
  async revokeToken(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string): Promise<Token> {
    ctx.require('admin');
    const revoked = await ctx.services.accounts.revokeCredential(supervisorActor(ctx.principal.supervisor), 'token', id);
    if (!revoked) throw new VigilError('not_found', `No token ${id}`);
    return toToken(revoked);
  }
}
