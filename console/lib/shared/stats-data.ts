import type { DeviceStatsRow, EventGroupKey, EventStatsRow, TimeBucket } from '../server/vigil/types';
import { formatBucketLabel } from './format';

/** The column of an eventStats row that holds each group key's value. */
export const eventGroupField = { TAG: 'tag', EVENT: 'event', BRANCH: 'branch', ROLE: 'role', USER: 'userId' } as const satisfies Record<
  EventGroupKey,
  keyof EventStatsRow
>;

type Row = Pick<EventStatsRow, 'bucket' | 'count' | 'tag' | 'event' | 'branch' | 'role' | 'userId'>;

const keyOf = (row: Row, by: EventGroupKey) => row[eventGroupField[by]] ?? '(none)';

/**
 * eventStats rows (bucket × one group key) as a stacked chart's series: one point per bucket, one series per
 * value of the key, the `limit` most frequent values by name and the rest summed as "other".
 */
export function stackedSeries(rows: Row[], by: EventGroupKey, bucket: TimeBucket, timeZone: string, limit = 6) {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(keyOf(r, by), (totals.get(keyOf(r, by)) ?? 0) + r.count);
  const top = [...totals]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([k]) => k);
  const keys = totals.size > top.length ? [...top, 'other'] : top;
  const points = new Map<string, Record<string, string | number>>();
  for (const r of [...rows].sort((a, b) => (a.bucket ?? '').localeCompare(b.bucket ?? ''))) {
    const at = r.bucket ?? '';
    const point = points.get(at) ?? Object.fromEntries([['label', at ? formatBucketLabel(at, bucket, timeZone) : 'all'], ...keys.map((k) => [k, 0])]);
    const series = top.includes(keyOf(r, by)) ? keyOf(r, by) : 'other';
    point[series] = Number(point[series] ?? 0) + r.count;
    points.set(at, point);
  }
  return { keys, data: [...points.values()] };
}

/** deviceStats rows as label/count pairs, largest first, for a bar chart. */
export function deviceTotals(rows: DeviceStatsRow[], label: (row: DeviceStatsRow) => string) {
  return rows.map((r) => ({ tag: label(r), count: r.count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}
