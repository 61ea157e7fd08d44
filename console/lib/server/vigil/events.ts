import 'server-only';
import { graphql } from '../transport';
import type { Bucket, Connection, EventRow, RiskBucket } from './types';

export interface EventFilter {
  deviceId?: string;
  identity?: string;
  event?: string;
  tag?: string;
  minScore?: number;
  from?: string;
  to?: string;
}

export const EVENT_PAGE_SIZE = 50;
const eventFields = `id name identity deviceId handprintId ip userAgent tags riskScore properties occurredAt`;

export async function listEvents(token: string, filter: EventFilter, after: string | null) {
  return (
    await graphql<{ events: Connection<EventRow> }>(
      token,
      `query ConsoleEvents($filter: EventFilter, $first: Int, $after: String) {
        events(filter: $filter, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { ${eventFields} } }
      }`,
      { filter, first: EVENT_PAGE_SIZE, after },
    )
  ).events;
}

export async function riskSummary(token: string, from: Date, to: Date, bucket: Bucket): Promise<RiskBucket[]> {
  const data = await graphql<{ riskSummary: { buckets: RiskBucket[] } }>(
    token,
    `query ConsoleRiskSummary($from: DateTimeISO!, $to: DateTimeISO!, $bucket: Bucket!) {
      riskSummary(from: $from, to: $to, bucket: $bucket) { buckets { start eventCount meanScore tagCounts { tag count } } }
    }`,
    { from: from.toISOString(), to: to.toISOString(), bucket },
  );
  return data.riskSummary.buckets;
}

/** How many events in [from, now) scored at or above `threshold`, and how many there were in all. */
export async function riskyShare(token: string, from: Date, threshold: number) {
  const data = await graphql<{ all: { totalCount: number }; risky: { totalCount: number } }>(
    token,
    `query ConsoleRiskyShare($from: DateTimeISO!, $threshold: Float!) {
      all: events(filter: { from: $from }, first: 1) { totalCount }
      risky: events(filter: { from: $from, minScore: $threshold }, first: 1) { totalCount }
    }`,
    { from: from.toISOString(), threshold },
  );
  return { total: data.all.totalCount, risky: data.risky.totalCount };
}
