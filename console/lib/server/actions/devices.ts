'use server';

import { revalidatePath } from 'next/cache';
import type { ActionResult } from '../../shared/action-result';
import { changeDevice } from '../vigil/devices';
import { perform, refuse, text } from './perform';

const MAX_TEXT = 500;

export async function deviceAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const deviceId = text(form, 'deviceId');
  const kind = text(form, 'action');
  if (!deviceId) return refuse('No device given.');
  let result: ActionResult;
  if (kind === 'deactivate' || kind === 'reactivate') {
    const reason = text(form, 'reason');
    if (!reason) return refuse('A reason is required.');
    if (reason.length > MAX_TEXT) return refuse(`The reason must be at most ${MAX_TEXT} characters.`);
    result = await perform(async (token, viewer) => {
      await changeDevice(token, deviceId, { type: kind, reason }, viewer.username);
      return kind === 'deactivate' ? `Device ${deviceId} deactivated.` : `Device ${deviceId} reactivated.`;
    });
  } else if (kind === 'transfer') {
    const newUserId = text(form, 'newUserId');
    if (!newUserId) return refuse('A new user id is required.');
    if (newUserId.length > 256) return refuse('The user id must be at most 256 characters.');
    result = await perform(async (token, viewer) => {
      await changeDevice(token, deviceId, { type: 'transfer', newUserId }, viewer.username);
      return `Device ${deviceId} transferred to ${newUserId}.`;
    });
  } else {
    return refuse('Unknown action.');
  }
  if (result.ok) revalidatePath(`/devices/${encodeURIComponent(deviceId)}`);
  return result;
}
