import type { RiskBucket } from '../server/vigil/types';
import { DEFAULT_TIME_ZONE, formatBucketLabel } from './format';

/** riskSummary cuts days in UTC, so a day is labelled as the UTC day it is; hours read best in local time. */
const labelZone = (bucket: 'HOUR' | 'DAY', timeZone: string) => (bucket === 'DAY' ? DEFAULT_TIME_ZONE : timeZone);

export function timeSeries(buckets: RiskBucket[], bucket: 'HOUR' | 'DAY', timeZone = DEFAULT_TIME_ZONE) {
  return buckets.map((b) => ({ label: formatBucketLabel(b.start, bucket, labelZone(bucket, timeZone)), events: b.eventCount, meanScore: b.meanScore }));
}

/** Totals per tag over all buckets, most frequent first. */
export function tagTotals(buckets: RiskBucket[]) {
  const totals = new Map<string, number>();
  for (const b of buckets) for (const t of b.tagCounts) totals.set(t.tag, (totals.get(t.tag) ?? 0) + t.count);
  return [...totals].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** Per-bucket counts of the `limit` most frequent tags, for a stacked chart. */
export function tagSeries(buckets: RiskBucket[], bucket: 'HOUR' | 'DAY', limit = 6, timeZone = DEFAULT_TIME_ZONE) {
  const tags = tagTotals(buckets)
    .slice(0, limit)
    .map((t) => t.tag);
  const data = buckets.map((b) => {
    const row: Record<string, string | number> = { label: formatBucketLabel(b.start, bucket, labelZone(bucket, timeZone)) };
    for (const tag of tags) row[tag] = b.tagCounts.find((t) => t.tag === tag)?.count ?? 0;
    return row;
  });
  return { tags, data };
}
