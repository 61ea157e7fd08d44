import 'server-only';
import { graphql } from '../transport';
import type { Connection, DeviceDetail, DeviceRow, DeviceStatus, Facets } from './types';

const registrationFields = `registration { userId role branch metadata status registeredAt associatedSince deactivatedAt deactivationReason deactivatedBy }`;
const deviceFields = `id status firstSeen lastSeen handprintId model osVersion currentTags ${registrationFields}`;
const facetFields = `facets { roles { value count } branches { value count } statuses { value count } tags { value count } }`;

export interface DeviceFilter {
  role?: string;
  branch?: string;
  status?: DeviceStatus;
  userId?: string;
  tag?: string;
}

export const DEVICE_PAGE_SIZE = 50;

/** One page of devices, newest activity first, with the filter choices in the same round trip. */
export async function listDevices(token: string, filter: DeviceFilter, after: string | null) {
  const data = await graphql<{ devices: Connection<DeviceRow>; facets: Facets }>(
    token,
    `query ConsoleDevices($filter: DeviceFilter, $first: Int, $after: String) {
      devices(filter: $filter, first: $first, after: $after, sort: LAST_SEEN_DESC) {
        totalCount pageInfo { hasNextPage endCursor } nodes { ${deviceFields} }
      }
      ${facetFields}
    }`,
    { filter, first: DEVICE_PAGE_SIZE, after },
  );
  return data;
}

export async function getFacets(token: string): Promise<Facets> {
  return (await graphql<{ facets: Facets }>(token, `query ConsoleFacets { ${facetFields} }`)).facets;
}

export async function getDevice(token: string, id: string): Promise<DeviceDetail | null> {
  const data = await graphql<{ device: DeviceDetail | null }>(
    token,
    `query ConsoleDevice($id: ID!) {
      device(id: $id) {
        ${deviceFields}
        history(first: 100) { id action fromUser toUser reason by actor { kind id name } at }
        recentEvents(first: 100) { id name identity deviceId handprintId ip userAgent tags riskScore properties occurredAt }
      }
    }`,
    { id },
  );
  return data.device;
}

export type DeviceAction =
  | { type: 'deactivate'; reason: string }
  | { type: 'reactivate'; reason: string }
  | { type: 'transfer'; newUserId: string };

/** Runs a registry change as the signed-in supervisor; `by` records who asked, as the spec's routes do. */
export async function changeDevice(token: string, deviceId: string, action: DeviceAction, by: string): Promise<void> {
  const select = `{ id status }`;
  if (action.type === 'deactivate') {
    await graphql(token, `mutation ConsoleDeactivate($deviceId: ID!, $reason: String!, $by: String!) { deactivateDevice(deviceId: $deviceId, reason: $reason, by: $by) ${select} }`, {
      deviceId,
      reason: action.reason,
      by,
    });
  } else if (action.type === 'reactivate') {
    await graphql(token, `mutation ConsoleReactivate($deviceId: ID!, $reason: String!, $by: String!) { reactivateDevice(deviceId: $deviceId, reason: $reason, by: $by) ${select} }`, {
      deviceId,
      reason: action.reason,
      by,
    });
  } else {
    await graphql(token, `mutation ConsoleTransfer($deviceId: ID!, $newUserId: String!, $by: String!) { transferDevice(deviceId: $deviceId, newUserId: $newUserId, by: $by) ${select} }`, {
      deviceId,
      newUserId: action.newUserId,
      by,
    });
  }
}
