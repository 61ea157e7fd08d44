import type { DeviceFilter, DeviceSort, DeviceStatus } from '../server/vigil/generated';

/**
 * The devices page's query string, read once and turned into the GraphQL filter, the sort and the export's REST
 * query, so the listing, its pages and its CSV download always mean the same devices.
 */
type Params = Record<string, string | string[] | undefined>;

export const statuses = ['active', 'deactivated', 'unregistered'] as const;

export const sorts = {
  last_seen_desc: { label: 'Last seen, newest first', api: 'LAST_SEEN_DESC' },
  last_seen_asc: { label: 'Last seen, oldest first', api: 'LAST_SEEN_ASC' },
  risk_desc: { label: 'Risk, highest first', api: 'RISK_DESC' },
  risk_asc: { label: 'Risk, lowest first', api: 'RISK_ASC' },
  device_id: { label: 'Device id', api: 'DEVICE_ID' },
} as const satisfies Record<string, { label: string; api: DeviceSort }>;

export type SortKey = keyof typeof sorts;
export const DEFAULT_SORT: SortKey = 'last_seen_desc';

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 256) : undefined);

export interface DeviceValues {
  /** Device id prefix. */
  id?: string;
  /** User id prefix. */
  user?: string;
  role?: string;
  branch?: string;
  status?: (typeof statuses)[number];
  tag?: string;
  sort?: SortKey;
}

export function readDeviceValues(params: Params): DeviceValues {
  const sort = one(params.sort);
  return {
    id: one(params.id),
    user: one(params.user),
    role: one(params.role),
    branch: one(params.branch),
    status: statuses.find((s) => s === params.status),
    tag: one(params.tag),
    // The default is left out of the URL.
    sort: sort && sort in sorts && sort !== DEFAULT_SORT ? (sort as SortKey) : undefined,
  };
}

export function deviceFilter(v: DeviceValues): DeviceFilter {
  return {
    ...(v.id && { idPrefix: v.id }),
    ...(v.user && { userIdPrefix: v.user }),
    ...(v.role && { role: v.role }),
    ...(v.branch && { branch: v.branch }),
    ...(v.status && { status: v.status.toUpperCase() as DeviceStatus }),
    ...(v.tag && { tag: v.tag }),
  };
}

export const deviceSort = (v: DeviceValues): DeviceSort => sorts[v.sort ?? DEFAULT_SORT].api;

/** The query of `GET /api/devices/export` (the REST routes' snake_case names) for the same devices. */
export function exportQuery(v: DeviceValues, format: 'csv' | 'ndjson' = 'csv'): URLSearchParams {
  const q = new URLSearchParams({ format });
  const add = (name: string, value: string | undefined) => value && q.set(name, value);
  add('id_prefix', v.id);
  add('user_id_prefix', v.user);
  add('role', v.role);
  add('branch', v.branch);
  add('status', v.status);
  add('tag', v.tag);
  return q;
}

/** The values as they appear in the devices page's URL, for links that keep the filter. */
export const urlValues = (v: DeviceValues): Record<string, string | undefined> => ({ ...v });
