import type { DeviceFieldsFragment } from '../server/vigil/generated';
import { formatDateTime } from './format';

type Device = Pick<DeviceFieldsFragment, 'id' | 'status' | 'registration'>;
type Action = { type: 'deactivate'; reason: string } | { type: 'reactivate'; reason: string } | { type: 'transfer'; newUserId: string };

/**
 * What a single-device change did, from the device before and after it: the registry's mutations are idempotent,
 * so "deactivated" is only said when the device was not deactivated already (then the kept reason is named).
 */
export function describeChange(action: Action, before: Device | null, after: Device, timeZone = 'UTC'): string {
  const id = after.id;
  const was = before?.registration;
  if (action.type === 'deactivate') {
    if (before?.status === 'DEACTIVATED' && was) {
      const since = formatDateTime(was.deactivatedAt, timeZone);
      return `Device ${id} was already deactivated since ${since}; reason kept: “${was.deactivationReason ?? ''}”.`;
    }
    return `Device ${id} deactivated.`;
  }
  if (action.type === 'reactivate') {
    if (before?.status === 'ACTIVE') return `Device ${id} was already active; nothing changed.`;
    return `Device ${id} reactivated.`;
  }
  if (was?.userId === action.newUserId) return `Device ${id} is already registered to ${action.newUserId}; nothing changed.`;
  return `Device ${id} transferred from ${was?.userId ?? 'no user'} to ${after.registration?.userId ?? action.newUserId}.`;
}
