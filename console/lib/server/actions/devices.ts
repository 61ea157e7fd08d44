'use server';

import { revalidatePath } from 'next/cache';
import type { ActionResult } from '../../shared/action-result';
import { describeChange } from '../../shared/describe-change';
import { timeZone } from '../time-zone';
import { changeDevice, type DeviceAction } from '../vigil/devices';
import { perform, refuse, text } from './perform';

const MAX_TEXT = 500;

function readAction(form: FormData): DeviceAction | string {
  const kind = text(form, 'action');
  if (kind === 'deactivate' || kind === 'reactivate') {
    const reason = text(form, 'reason');
    if (!reason) return 'A reason is required.';
    if (reason.length > MAX_TEXT) return `The reason must be at most ${MAX_TEXT} characters.`;
    return { type: kind, reason };
  }
  if (kind === 'transfer') {
    const newUserId = text(form, 'newUserId');
    if (!newUserId) return 'A new user id is required.';
    if (newUserId.length > 256) return 'The user id must be at most 256 characters.';
    return { type: 'transfer', newUserId };
  }
  return 'Unknown action.';
}

/** One registry change from the device page; the feedback says what changed, or that nothing did and why. */
export async function deviceAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const deviceId = text(form, 'deviceId');
  if (!deviceId) return refuse('No device given.');
  const action = readAction(form);
  if (typeof action === 'string') return refuse(action);
  const result = await perform(async (token, viewer) => {
    const { before, after } = await changeDevice(token, deviceId, action, viewer.username);
    return describeChange(action, before, after, await timeZone());
  });
  if (result.ok) revalidatePath('/devices/[id]', 'page');
  return result;
}
