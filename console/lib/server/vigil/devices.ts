import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
import type * as G from './generated';
import type { BulkResult, DeviceDetail, DeviceSort, Facets } from './types';

export type DeviceFilter = G.DeviceFilter;

export interface DeviceQuery {
  filter: DeviceFilter;
  after: string | null;
  first: number;
  sort: DeviceSort;
}

/** One page of devices with the filter choices in the same round trip. */
export async function listDevices(token: string, query: DeviceQuery) {
  const variables = { filter: query.filter, first: query.first, after: query.after, sort: query.sort };
  return graphql<G.ConsoleDevicesQuery>(token, documents.devices, variables);
}

export async function getFacets(token: string): Promise<Facets> {
  return (await graphql<G.ConsoleFacetsQuery>(token, documents.facets)).facets;
}

export async function getDevice(token: string, id: string): Promise<DeviceDetail | null> {
  return (await graphql<G.ConsoleDeviceQuery>(token, documents.device, { id })).device;
}

export type DeviceAction = { type: 'deactivate'; reason: string } | { type: 'reactivate'; reason: string } | { type: 'transfer'; newUserId: string };

type Changed = G.DeviceFieldsFragment;

/**
 * Runs a registry change as the signed-in supervisor; `by` records who asked, as the supervisor REST routes do. Returns the
 * device before and after, so the caller can say exactly what changed (or that nothing did).
 */
export async function changeDevice(token: string, deviceId: string, action: DeviceAction, by: string): Promise<{ before: Changed | null; after: Changed }> {
  const before = (await graphql<G.ConsoleDeviceStateQuery>(token, documents.deviceState, { id: deviceId })).device;
  let after: Changed;
  if (action.type === 'transfer')
    after = (await graphql<G.ConsoleTransferMutation>(token, documents.transfer, { deviceId, newUserId: action.newUserId, by })).transferDevice;
  else if (action.type === 'deactivate')
    after = (await graphql<G.ConsoleDeactivateMutation>(token, documents.deactivate, { deviceId, reason: action.reason, by })).deactivateDevice;
  else after = (await graphql<G.ConsoleReactivateMutation>(token, documents.reactivate, { deviceId, reason: action.reason, by })).reactivateDevice;
  return { before, after };
}

export type BulkAction = { type: 'deactivate'; reason: string } | { type: 'transfer'; newUserId: string };

/** One mutation for many devices; the server answers per device (changed, unchanged, refused, not found). */
export async function changeDevices(token: string, ids: string[], action: BulkAction, by: string): Promise<BulkResult[]> {
  if (action.type === 'transfer')
    return (await graphql<G.ConsoleTransferManyMutation>(token, documents.transferMany, { ids, newUserId: action.newUserId, by })).transferDevices;
  return (await graphql<G.ConsoleDeactivateManyMutation>(token, documents.deactivateMany, { ids, reason: action.reason, by })).deactivateDevices;
}
