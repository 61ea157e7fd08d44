import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { supervisorActor, type AccountAuditEntry } from '../../auth/account-audit.js';
import type { CredentialListing } from '../../auth/supervisor-store.js';
import { VigilError } from '../../errors.js';
import type { GraphqlContext } from '../context.js';
import { perItem } from '../cost.js';
import { AccountAuditRecord, PasswordReset, Session, Supervisor } from '../types/admin.js';
import { AccountActionEnum, SupervisorRoleEnum } from '../types/enums.js';
import { toSupervisor } from './admin.js';
import { sublistSize } from './paging.js';

const toSession = (s: CredentialListing): Session => ({
  id: s.id,
  username: s.username,
  displayPrefix: s.displayPrefix,
  createdAt: s.createdAt,
  // Sessions are always created with an expiry.
  expiresAt: s.expiresAt!,
  lastUsedAt: s.lastUsedAt,
  revokedAt: s.revokedAt,
});

const toAuditRecord = (e: AccountAuditEntry): AccountAuditRecord => ({
  id: e.id,
  action: e.action as AccountActionEnum,
  actor: e.actor,
  supervisorId: e.subject.id,
  username: e.subject.username,
  detail: e.detail,
  at: e.at,
});

/**
 * What an admin does to other accounts when one is compromised or a person leaves: disable, enable, delete, reset
 * the password, change the role, and see and end sessions. Admin only; every change is audited.
 */
@Resolver()
export class AccountsResolver {
  @Mutation(() => Supervisor, { description: 'Disable an account at once: no sign-in, its sessions end and its tokens are refused until enabled (admin).' })
  async disableSupervisor(@Ctx() ctx: GraphqlContext, @Arg('username', () => String) username: string): Promise<Supervisor> {
    ctx.require('admin');
    return toSupervisor((await ctx.services.accounts.disable(supervisorActor(ctx.principal.supervisor), username)).supervisor);
  }

  @Mutation(() => Supervisor, { description: 'Enable a disabled account: its unrevoked, unexpired tokens work again; ended sessions stay ended (admin).' })
  async enableSupervisor(@Ctx() ctx: GraphqlContext, @Arg('username', () => String) username: string): Promise<Supervisor> {
    ctx.require('admin');
    return toSupervisor(await ctx.services.accounts.enable(supervisorActor(ctx.principal.supervisor), username));
  }

  @Mutation(() => Supervisor, { description: 'Delete an account with its sessions and tokens; returns it as it was. The audit keeps its username (admin).' })
  async deleteSupervisor(@Ctx() ctx: GraphqlContext, @Arg('username', () => String) username: string): Promise<Supervisor> {
    ctx.require('admin');
    return toSupervisor(await ctx.services.accounts.delete(supervisorActor(ctx.principal.supervisor), username));
  }

  @Mutation(() => PasswordReset, { description: 'Give an account a new generated password, returned only here; its sessions end (admin).' })
  async resetSupervisorPassword(@Ctx() ctx: GraphqlContext, @Arg('username', () => String) username: string): Promise<PasswordReset> {
    ctx.require('admin');
    const reset = await ctx.services.accounts.resetPassword(supervisorActor(ctx.principal.supervisor), username);
    return { supervisor: toSupervisor(reset.supervisor), password: reset.password, sessionsRevoked: reset.sessionsRevoked };
  }

  @Mutation(() => Supervisor, { description: 'Change the role of an account; it applies to its next request (admin).' })
  async setSupervisorRole(
    @Ctx() ctx: GraphqlContext,
    @Arg('username', () => String) username: string,
    @Arg('role', () => SupervisorRoleEnum) role: SupervisorRoleEnum,
  ): Promise<Supervisor> {
    ctx.require('admin');
    return toSupervisor(await ctx.services.accounts.setRole(supervisorActor(ctx.principal.supervisor), username, role));
  }

  @Query(() => [Session], { description: 'Console sessions of every supervisor, or of one, newest first (admin).' })
  async sessions(
    @Ctx() ctx: GraphqlContext,
    @Arg('username', () => String, { nullable: true }) username: string | null,
    @Arg('active', () => Boolean, { defaultValue: false, description: 'Only sessions that still work (not ended, not expired).' }) active: boolean,
  ): Promise<Session[]> {
    ctx.require('admin');
    return (await ctx.services.accounts.credentials('session', username ?? undefined, active)).map(toSession);
  }

  @Mutation(() => Session, { description: 'End a console session at once (admin).' })
  async revokeSession(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string): Promise<Session> {
    ctx.require('admin');
    const revoked = await ctx.services.accounts.revokeCredential(supervisorActor(ctx.principal.supervisor), 'session', id);
    if (!revoked) throw new VigilError('not_found', `No session ${id}`);
    return toSession(revoked);
  }

  @Query(() => [AccountAuditRecord], { description: 'Changes to accounts and their credentials, newest first (admin).', complexity: perItem(100) })
  async accountAudit(
    @Ctx() ctx: GraphqlContext,
    @Arg('username', () => String, { nullable: true, description: 'Only changes to this account (deleted ones too).' }) username: string | null,
    @Arg('first', () => Int, { nullable: true, description: '1 to 500, default 100.' }) first: number | null,
  ): Promise<AccountAuditRecord[]> {
    ctx.require('admin');
    const limit = sublistSize(first ?? 100, 500);
    return (await ctx.services.accounts.history({ username: username ?? undefined, limit })).map(toAuditRecord);
  }
}
