import { desc, eq } from 'drizzle-orm';
import { accountAudit, type AccountAuditRow } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { newId } from '../ids.js';
import { enqueueWebhookEvent } from '../webhooks/outbox.js';

export const accountActions = [
  'create',
  'disable',
  'enable',
  'delete',
  'reset_password',
  'set_role',
  'create_token',
  'revoke_token',
  'revoke_session',
  'rotate_token',
] as const;
export type AccountAction = (typeof accountActions)[number];

/** Who made a change: a signed-in supervisor, or someone with shell access running the CLI. */
export type Actor = { kind: 'supervisor'; id: string; name: string } | { kind: 'cli'; id: null; name: string };

export interface AccountAuditEntry {
  id: string;
  at: Date;
  action: AccountAction;
  actor: { kind: 'supervisor' | 'cli'; id: string | null; name: string };
  subject: { id: string; username: string };
  detail: Record<string, unknown> | null;
}

/** Written in the transaction of the change it records, so a change and its record stand or fall together. */
export async function recordAccountChange(
  db: Queryable,
  actor: Actor,
  action: AccountAction,
  subject: { id: string; username: string },
  detail: Record<string, unknown> | null = null,
): Promise<void> {
  await db.insert(accountAudit).values({
    id: newId('aud'),
    action,
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name,
    subjectId: subject.id,
    subjectName: subject.username,
    detail,
  });
  const type = ACCOUNT_WEBHOOK[action];
  if (type) {
    await enqueueWebhookEvent(db, {
      type,
      data: { account_id: subject.id, username: subject.username, change: action, detail, actor: { kind: actor.kind, name: actor.name } },
    });
  }
}

/**
 * Changes to an account itself are announced; its tokens and sessions are not (a token is minted by every script
 * that signs in, which would drown the interesting changes).
 */
const ACCOUNT_WEBHOOK: Partial<Record<AccountAction, 'account.created' | 'account.updated' | 'account.deleted'>> = {
  create: 'account.created',
  delete: 'account.deleted',
  disable: 'account.updated',
  enable: 'account.updated',
  reset_password: 'account.updated',
  set_role: 'account.updated',
};

/** Newest first; `username` narrows to the changes made to one account (deleted accounts included). */
export async function accountHistory(db: Queryable, options: { username?: string; limit: number }): Promise<AccountAuditEntry[]> {
  const rows = await db
    .select()
    .from(accountAudit)
    .where(options.username === undefined ? undefined : eq(accountAudit.subjectName, options.username))
    .orderBy(desc(accountAudit.at), desc(accountAudit.id))
    .limit(options.limit);
  return rows.map(toEntry);
}

function toEntry(row: AccountAuditRow): AccountAuditEntry {
  return {
    id: row.id,
    at: row.at,
    action: row.action as AccountAction,
    actor: { kind: row.actorKind as 'supervisor' | 'cli', id: row.actorId, name: row.actorName },
    subject: { id: row.subjectId, username: row.subjectName },
    detail: row.detail,
  };
}

export const supervisorActor = (supervisor: { id: string; username: string }): Actor => ({ kind: 'supervisor', id: supervisor.id, name: supervisor.username });
