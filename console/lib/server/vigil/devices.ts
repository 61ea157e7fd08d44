import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
import type { Connection, DeviceDetail, DeviceRow, DeviceStatus, Facets } from './types';

export interface DeviceFilter {
  role?: string;
  branch?: string;
  status?: DeviceStatus;
  userId?: string;
  tag?: string;
}

export const DEVICE_PAGE_SIZE = 50;

/** One page of devices, most recently seen first, with the filter choices in the same round trip. */
export function listDevices(token: string, filter: DeviceFilter, after: string | null) {
  return graphql<{ devices: Connection<DeviceRow>; facets: Facets }>(token, documents.devices, { filter, first: DEVICE_PAGE_SIZE, after });
}

export async function getFacets(token: string): Promise<Facets> {
  return (await graphql<{ facets: Facets }>(token, documents.facets)).facets;
}

export async function getDevice(token: string, id: string): Promise<DeviceDetail | null> {
  return (await graphql<{ device: DeviceDetail | null }>(token, documents.device, { id })).device;
}

export type DeviceAction =
  | { type: 'deactivate'; reason: string }
  | { type: 'reactivate'; reason: string }
  | { type: 'transfer'; newUserId: string };

/** Runs a registry change as the signed-in supervisor; `by` records who asked, as the spec's routes do. */
export async function changeDevice(token: string, deviceId: string, action: DeviceAction, by: string): Promise<void> {
  if (action.type === 'transfer') await graphql(token, documents.transfer, { deviceId, newUserId: action.newUserId, by });
  else await graphql(token, documents[action.type], { deviceId, reason: action.reason, by });
}
