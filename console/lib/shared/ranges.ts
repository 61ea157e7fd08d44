import type { Bucket } from '../server/vigil/types';

/** Time ranges offered by the charts; each has a bucket width that keeps the chart readable. */
export const ranges = {
  '24h': { label: 'Last 24 hours', hours: 24, bucket: 'HOUR' as Bucket },
  '7d': { label: 'Last 7 days', hours: 24 * 7, bucket: 'HOUR' as Bucket },
  '30d': { label: 'Last 30 days', hours: 24 * 30, bucket: 'DAY' as Bucket },
} as const;

export type RangeKey = keyof typeof ranges;

export const rangeKey = (value: unknown): RangeKey => (typeof value === 'string' && value in ranges ? (value as RangeKey) : '24h');

/** [from, to) of a range ending at the next full hour, so the last bucket is the current one. */
export function rangeBounds(key: RangeKey, now: Date = new Date()) {
  const to = new Date(Math.ceil((now.getTime() + 1) / 3600_000) * 3600_000);
  const from = new Date(to.getTime() - ranges[key].hours * 3600_000);
  return { from, to, bucket: ranges[key].bucket };
}
