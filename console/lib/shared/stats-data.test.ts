import { describe, expect, it } from 'vitest';
import { stackedSeries } from './stats-data';

const row = (bucket: string, tag: string | null, count: number) => ({ bucket, tag, event: null, branch: null, role: null, userId: null, count });

describe('eventStats rows as a stacked chart', () => {
  it('has a point per bucket and a series per value, the rest as other', () => {
    const rows = [
      row('2026-01-02T00:00:00Z', 'vpn', 3),
      row('2026-01-01T00:00:00Z', 'vpn', 2),
      row('2026-01-01T00:00:00Z', 'tor', 1),
      row('2026-01-02T00:00:00Z', null, 4),
    ];
    const { keys, data } = stackedSeries(rows, 'TAG', 'DAY', 'UTC', 2);
    expect(keys).toEqual(['vpn', '(none)', 'other']);
    expect(data).toEqual([
      { label: '01-01', vpn: 2, '(none)': 0, other: 1 },
      { label: '01-02', vpn: 3, '(none)': 4, other: 0 },
    ]);
  });
});
