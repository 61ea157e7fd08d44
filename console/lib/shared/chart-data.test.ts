import { describe, expect, it } from 'vitest';
import { tagSeries, tagTotals, timeSeries } from './chart-data';

const buckets = [
  {
    start: '2026-01-01T10:00:00.000Z',
    eventCount: 4,
    meanScore: 0.5,
    tagCounts: [
      { tag: 'vpn', count: 2 },
      { tag: 'tor', count: 1 },
    ],
  },
  { start: '2026-01-01T11:00:00.000Z', eventCount: 0, meanScore: null, tagCounts: [] },
  { start: '2026-01-01T12:00:00.000Z', eventCount: 2, meanScore: 0.9, tagCounts: [{ tag: 'tor', count: 2 }] },
];

describe('chart data from riskSummary buckets', () => {
  it('labels buckets in UTC and keeps empty ones', () => {
    expect(timeSeries(buckets, 'HOUR')).toEqual([
      { label: '01-01 10h', events: 4, meanScore: 0.5 },
      { label: '01-01 11h', events: 0, meanScore: null },
      { label: '01-01 12h', events: 2, meanScore: 0.9 },
    ]);
  });

  it("labels buckets in the supervisor's time zone", () => {
    expect(timeSeries(buckets, 'HOUR', 'Asia/Kolkata').map((b) => b.label)).toEqual(['01-01 15h', '01-01 16h', '01-01 17h']);
  });

  it('totals tags, most frequent first, and stacks them per bucket', () => {
    expect(tagTotals(buckets)).toEqual([
      { tag: 'tor', count: 3 },
      { tag: 'vpn', count: 2 },
    ]);
    const { tags, data } = tagSeries(buckets, 'DAY', 1);
    expect(tags).toEqual(['tor']);
    expect(data.map((d) => d.tor)).toEqual([1, 0, 2]);
  });
});
