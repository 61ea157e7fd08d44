import type { RiskBucket } from '../server/vigil/types';
import { formatBucketLabel } from './format';

export function timeSeries(buckets: RiskBucket[], bucket: 'HOUR' | 'DAY') {
  return buckets.map((b) => ({ label: formatBucketLabel(b.start, bucket), events: b.eventCount, meanScore: b.meanScore }));
}

/** Totals per tag over all buckets, most frequent first. */
export function tagTotals(buckets: RiskBucket[]) {
  const totals = new Map<string, number>();
  for (const b of buckets) for (const t of b.tagCounts) totals.set(t.tag, (totals.get(t.tag) ?? 0) + t.count);
  return [...totals].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** Per-bucket counts of the `limit` most frequent tags, for a stacked chart. */
export function tagSeries(buckets: RiskBucket[], bucket: 'HOUR' | 'DAY', limit = 6) {
  const tags = tagTotals(buckets)
    .slice(0, limit)
    .map((t) => t.tag);
  const data = buckets.map((b) => {
    const row: Record<string, string | number> = { label: formatBucketLabel(b.start, bucket) };
    for (const tag of tags) row[tag] = b.tagCounts.find((t) => t.tag === tag)?.count ?? 0;
    return row;
  });
  return { tags, data };
}
