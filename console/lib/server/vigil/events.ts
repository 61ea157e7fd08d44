import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
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

export async function listEvents(token: string, filter: EventFilter, after: string | null) {
  return (await graphql<{ events: Connection<EventRow> }>(token, documents.events, { filter, first: EVENT_PAGE_SIZE, after })).events;
}

export async function riskSummary(token: string, from: Date, to: Date, bucket: Bucket): Promise<RiskBucket[]> {
  const data = await graphql<{ riskSummary: { buckets: RiskBucket[] } }>(token, documents.riskSummary, {
    from: from.toISOString(),
    to: to.toISOString(),
    bucket,
  });
  return data.riskSummary.buckets;
}

/** How many events since `from` scored at or above `threshold`, and how many there were in all. */
export async function riskyShare(token: string, from: Date, threshold: number) {
  const data = await graphql<{ all: { totalCount: number }; risky: { totalCount: number } }>(token, documents.riskyShare, {
    from: from.toISOString(),
    threshold,
  });
  return { total: data.all.totalCount, risky: data.risky.totalCount };
}
