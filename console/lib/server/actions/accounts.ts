'use server';

import { revalidatePath } from 'next/cache';
import type { ActionResult } from '../../shared/action-result';
import { changeAccount, resetPassword, revokeSession, setRole } from '../vigil/admin';
import type { SupervisorRole } from '../vigil/types';
import { perform, refuse, text } from './perform';

const roles: Record<string, SupervisorRole> = { admin: 'ADMIN', supervisor: 'SUPERVISOR', viewer: 'VIEWER' };

/** Every account action runs the same way: a username from the form, one API call, the page refreshed. */
async function onAccount(
  form: FormData,
  run: (token: string, username: string) => Promise<string | { message: string; secret: string }>,
): Promise<ActionResult> {
  const username = text(form, 'username');
  if (!username) return refuse('No account given.');
  const result = await perform((token) => run(token, username));
  if (result.ok) revalidatePath('/supervisors');
  return result;
}

export async function disableAccountAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  return onAccount(form, async (token, username) => {
    await changeAccount(token, 'disableSupervisor', username);
    return `${username} disabled: signed out everywhere, and their API tokens are refused until enabled.`;
  });
}

export async function enableAccountAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  return onAccount(form, async (token, username) => {
    await changeAccount(token, 'enableSupervisor', username);
    return `${username} enabled. Tokens that were not revoked work again.`;
  });
}

export async function deleteAccountAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  return onAccount(form, async (token, username) => {
    await changeAccount(token, 'deleteSupervisor', username);
    return `${username} deleted, with their sessions and API tokens.`;
  });
}

export async function resetPasswordAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  return onAccount(form, async (token, username) => {
    const reset = await resetPassword(token, username);
    return { message: `New password for ${username}; they were signed out everywhere. Give it to them now: it is not shown again.`, secret: reset.password };
  });
}

export async function setRoleAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const role = roles[text(form, 'role')];
  if (!role) return refuse('Choose a role.');
  return onAccount(form, async (token, username) => {
    await setRole(token, username, role);
    return `${username} is now ${role.toLowerCase()}.`;
  });
}

export async function revokeSessionAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  if (!id) return refuse('No session given.');
  const result = await perform(async (token) => {
    await revokeSession(token, id);
    return `Session of ${text(form, 'username') || 'the account'} ended.`;
  });
  if (result.ok) revalidatePath('/supervisors');
  return result;
}
