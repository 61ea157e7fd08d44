import 'server-only';
import { ApiError, ApiUnavailableError, SessionExpiredError } from '../errors';
import { graphql } from '../transport';
import { documents } from './documents';
import type { ConsoleCapabilitiesQuery } from './generated';

export interface Capabilities {
  /** idPrefix/userIdPrefix, riskScore and the risk sorts on devices. */
  deviceSearch: boolean;
  bulk: boolean;
  stats: boolean;
  live: boolean;
}

const TTL_MS = 60_000;
const everything: Capabilities = { deviceSearch: true, bulk: true, stats: true, live: true };
let cached: { at: number; value: Capabilities } | null = null;

/**
 * What the connected Vigil server offers of the reporting additions, asked of its schema and kept for a minute:
 * the console and the server are deployed separately, and a console newer than its server still works.
 */
export async function capabilities(token: string): Promise<Capabilities> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.value;
  let data: ConsoleCapabilitiesQuery;
  try {
    data = await graphql<ConsoleCapabilitiesQuery>(token, documents.capabilities);
  } catch (error) {
    // Introspection switched off on the server: it cannot say, so it is taken to be as new as the console.
    if (!(error instanceof ApiError) || error instanceof SessionExpiredError || error instanceof ApiUnavailableError) throw error;
    cached = { at: Date.now(), value: everything };
    return everything;
  }
  const names = (list: { name: string }[] | null | undefined) => new Set((list ?? []).map((f) => f.name));
  const device = names(data.device?.fields);
  const filter = names(data.deviceFilter?.inputFields);
  const query = names(data.query?.fields);
  const mutation = names(data.mutation?.fields);
  const value: Capabilities = {
    deviceSearch: device.has('riskScore') && filter.has('idPrefix') && filter.has('userIdPrefix'),
    bulk: mutation.has('deactivateDevices') && mutation.has('transferDevices'),
    stats: query.has('eventStats') && query.has('deviceStats'),
    live: names(data.subscription?.fields).has('eventAdded'),
  };
  cached = { at: Date.now(), value };
  return value;
}
