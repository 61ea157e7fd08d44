/** The steps of a bulk change on the devices page: choose, confirm (naming the count), then a result per device. */
export type BulkKind = 'deactivate' | 'transfer';

export interface BulkResultRow {
  deviceId: string;
  outcome: 'CHANGED' | 'UNCHANGED' | 'REFUSED' | 'NOT_FOUND';
  message: string;
}

export type BulkState =
  | { stage: 'choose'; error?: string; at: number }
  | { stage: 'confirm'; kind: BulkKind; ids: string[]; reason: string; newUserId: string; at: number }
  | { stage: 'done'; kind: BulkKind; results: BulkResultRow[]; at: number };

export const bulkIdle: BulkState = { stage: 'choose', at: 0 };

/** The id of the bulk form; the table's checkboxes join it with their `form` attribute. */
export const BULK_FORM = 'bulk-devices';

/** At most one page of the largest size, so a confirmation always lists what it changes. */
export const BULK_MAX = 200;

export function bulkTitle(kind: BulkKind, count: number, newUserId = ''): string {
  const devices = count === 1 ? '1 device' : `${count} devices`;
  return kind === 'deactivate' ? `Deactivate ${devices}` : `Transfer ${devices} to ${newUserId}`;
}

export function bulkDoneTitle(kind: BulkKind, results: BulkResultRow[]): string {
  const changed = results.filter((r) => r.outcome === 'CHANGED').length;
  return `${kind === 'deactivate' ? 'Deactivated' : 'Transferred'} ${changed} of ${results.length === 1 ? '1 device' : `${results.length} devices`}`;
}
