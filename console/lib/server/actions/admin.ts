'use server';

import { revalidatePath } from 'next/cache';
import type { ActionResult } from '../../shared/action-result';
import { createKey, createSupervisor, createToken, revokeKey, revokeToken, rotateKey, rotateToken } from '../vigil/admin';
import type { KeyKind, SupervisorRole } from '../vigil/types';
import { perform, refuse, text } from './perform';

const kinds: Record<string, KeyKind> = { write: 'WRITE', client: 'CLIENT' };
const roles: Record<string, SupervisorRole> = { admin: 'ADMIN', supervisor: 'SUPERVISOR', viewer: 'VIEWER' };

export async function createKeyAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const kind = kinds[text(form, 'kind')];
  const name = text(form, 'name');
  if (!kind) return refuse('Choose a write key or a client key.');
  if (!name) return refuse('A name is required, so you can tell keys apart.');
  // Blank or 0: the key never expires.
  const days = text(form, 'expires_in_days');
  const expiresInDays = days === '' ? null : Number(days);
  if (expiresInDays !== null && !Number.isInteger(expiresInDays)) return refuse('Expires in: a whole number of days, or blank for never.');
  const result = await perform(async (token) => {
    const created = await createKey(token, kind, name, expiresInDays);
    const expires = created.key.expiresAt ? `expires ${created.key.expiresAt.slice(0, 10)}` : 'never expires';
    return {
      message: `${kind === 'WRITE' ? 'Write' : 'Client'} key “${name}” created (${expires}). Copy it now: it is not shown again.`,
      secret: created.secret,
    };
  });
  if (result.ok) revalidatePath('/security');
  return result;
}

/** The overlap field of a rotation: blank is the server's default. */
function overlapOf(form: FormData): number | null | undefined {
  const hours = text(form, 'overlap_hours');
  if (hours === '') return null;
  const n = Number(hours);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export async function rotateKeyAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  const name = text(form, 'name');
  const overlapHours = overlapOf(form);
  if (!id) return refuse('No key given.');
  if (overlapHours === undefined) return refuse('Overlap: a number of hours (0: the old key stops at once), or blank for the default.');
  const result = await perform(async (token) => {
    const rotated = await rotateKey(token, id, overlapHours);
    return {
      message: `Key “${name || id}” rotated. The old key works until ${rotated.previous.expiresAt ?? 'now'}. Copy the new one now: it is not shown again.`,
      secret: rotated.secret,
    };
  });
  if (result.ok) revalidatePath('/security');
  return result;
}

export async function rotateTokenAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  const name = text(form, 'name');
  const overlapHours = overlapOf(form);
  if (!id) return refuse('No token given.');
  if (overlapHours === undefined) return refuse('Overlap: a number of hours (0: the old token stops at once), or blank for the default.');
  const result = await perform(async (token) => {
    const rotated = await rotateToken(token, id, overlapHours);
    return {
      message: `Token “${name || id}” rotated. The old token works until ${rotated.previous.expiresAt ?? 'now'}. Copy the new one now: it is not shown again.`,
      secret: rotated.token,
    };
  });
  if (result.ok) {
    revalidatePath('/security');
    revalidatePath('/supervisors');
  }
  return result;
}

export async function revokeKeyAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  const name = text(form, 'name');
  if (!id) return refuse('No key given.');
  const result = await perform(async (token) => {
    await revokeKey(token, id);
    return `Key “${name || id}” revoked. Requests with it are refused from now on.`;
  });
  if (result.ok) revalidatePath('/security');
  return result;
}

export async function createSupervisorAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const username = text(form, 'username');
  const role = roles[text(form, 'role')];
  if (!username) return refuse('A username is required.');
  if (!role) return refuse('Choose a role.');
  const result = await perform(async (token) => {
    const created = await createSupervisor(token, username, role);
    return { message: `Account ${username} created. Give them this password; it is not shown again.`, secret: created.password ?? '' };
  });
  if (result.ok) revalidatePath('/supervisors');
  return result;
}

export async function createTokenAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const username = text(form, 'username');
  const name = text(form, 'name');
  if (!username) return refuse('Choose the account the token acts for.');
  if (!name) return refuse('A name is required, so you can tell tokens apart.');
  // Blank: the server's default lifetime; 0: never expires.
  const days = text(form, 'expires_in_days');
  const expiresInDays = days === '' ? null : Number(days);
  if (expiresInDays !== null && !Number.isInteger(expiresInDays)) return refuse('Expires in: a whole number of days (0: never), or blank for the default.');
  const result = await perform(async (token) => {
    const created = await createToken(token, username, name, expiresInDays);
    const expires = created.expiresAt ? `expires ${created.expiresAt.slice(0, 10)}` : 'never expires';
    return { message: `API token “${name}” created for ${username} (${expires}). Copy it now: it is not shown again.`, secret: created.token };
  });
  if (result.ok) revalidatePath('/supervisors');
  return result;
}

export async function revokeTokenAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  const name = text(form, 'name');
  if (!id) return refuse('No token given.');
  const result = await perform(async (token) => {
    await revokeToken(token, id);
    return `Token “${name || id}” revoked.`;
  });
  if (result.ok) revalidatePath('/supervisors');
  return result;
}
