import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
import type * as G from './generated';
import type { Bucket, DeviceStatsRow, EventStatsRow, RiskBucket } from './types';

export type EventFilter = G.EventFilter;

export const EVENT_PAGE_SIZE = 50;

export async function listEvents(token: string, filter: EventFilter, after: string | null, first = EVENT_PAGE_SIZE) {
  return (await graphql<G.ConsoleEventsQuery>(token, documents.events, { filter, first, after })).events;
}

export async function riskSummary(token: string, from: Date, to: Date, bucket: Bucket): Promise<RiskBucket[]> {
  const data = await graphql<G.ConsoleRiskSummaryQuery>(token, documents.riskSummary, {
    from: from.toISOString(),
    to: to.toISOString(),
    bucket,
  });
  return data.riskSummary.buckets;
}

/** How many events since `from` scored at or above `threshold`, and how many there were in all. */
export async function riskyShare(token: string, from: Date, threshold: number) {
  const data = await graphql<G.ConsoleRiskyShareQuery>(token, documents.riskyShare, {
    from: from.toISOString(),
    threshold,
  });
  return { total: data.all.totalCount, risky: data.risky.totalCount };
}

export async function eventStats(token: string, variables: G.ConsoleEventStatsQueryVariables): Promise<EventStatsRow[]> {
  return (await graphql<G.ConsoleEventStatsQuery>(token, documents.eventStats, variables)).eventStats;
}

export async function deviceStats(token: string, variables: G.ConsoleDeviceStatsQueryVariables): Promise<DeviceStatsRow[]> {
  return (await graphql<G.ConsoleDeviceStatsQuery>(token, documents.deviceStats, variables)).deviceStats;
}
