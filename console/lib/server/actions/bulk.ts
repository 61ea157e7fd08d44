'use server';

import { revalidatePath } from 'next/cache';
import { BULK_MAX, type BulkKind, type BulkState } from '../../shared/bulk-state';
import { changeDevices } from '../vigil/devices';
import { perform, text } from './perform';

const MAX_TEXT = 500;

function chosen(form: FormData): string[] {
  // "All on this page" sends the page's ids as page_id; otherwise the ticked rows' ids.
  const source = form.get('all_on_page') ? form.getAll('page_id') : form.getAll('id');
  return [...new Set(source.filter((v): v is string => typeof v === 'string' && v !== ''))];
}

/**
 * The bulk form of the devices page, as one server action so it works as a plain HTML POST: `review` checks the
 * choice and answers the confirmation, `apply` runs one bulk mutation and answers the server's outcome per device.
 */
export async function bulkDevicesAction(_previous: BulkState, form: FormData): Promise<BulkState> {
  const at = Date.now();
  const intent = text(form, 'intent');
  if (intent === 'cancel') return { stage: 'choose', at };
  const kind = text(form, 'kind') as BulkKind;
  if (kind !== 'deactivate' && kind !== 'transfer') return { stage: 'choose', error: 'Choose Deactivate or Transfer.', at };
  const reason = text(form, 'reason');
  const newUserId = text(form, 'newUserId');
  if (kind === 'deactivate' && (!reason || reason.length > MAX_TEXT))
    return { stage: 'choose', error: `A reason of 1 to ${MAX_TEXT} characters is required to deactivate.`, at };
  if (kind === 'transfer' && (!newUserId || newUserId.length > 256))
    return { stage: 'choose', error: 'A new user id of 1 to 256 characters is required to transfer.', at };
  const ids = intent === 'apply' ? [...new Set(form.getAll('confirmed_id').filter((v): v is string => typeof v === 'string' && v !== ''))] : chosen(form);
  if (ids.length === 0) return { stage: 'choose', error: 'Select at least one device.', at };
  if (ids.length > BULK_MAX) return { stage: 'choose', error: `At most ${BULK_MAX} devices at a time.`, at };
  if (intent !== 'apply') return { stage: 'confirm', kind, ids, reason, newUserId, at };

  let results: Awaited<ReturnType<typeof changeDevices>> = [];
  const outcome = await perform(async (token, viewer) => {
    results = await changeDevices(token, ids, kind === 'transfer' ? { type: 'transfer', newUserId } : { type: 'deactivate', reason }, viewer.username);
    return '';
  });
  if (!outcome.ok) return { stage: 'choose', error: outcome.message, at };
  revalidatePath('/devices');
  return { stage: 'done', kind, results: results.map(({ deviceId, outcome: o, message }) => ({ deviceId, outcome: o, message })), at };
}
