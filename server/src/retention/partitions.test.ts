import { describe, expect, it } from 'vitest';
import { EVENTS, POINTS, partitionAt, partitionStart } from './partitions.js';

describe('partition ranges', () => {
  it('cuts events by UTC month, across the year end', () => {
    const dec31 = Date.UTC(2026, 11, 31, 23, 59, 59, 999);
    const p = partitionAt(EVENTS, partitionStart(EVENTS, dec31));
    expect(p).toEqual({ name: 'events_p202612', start: Date.UTC(2026, 11, 1), end: Date.UTC(2027, 0, 1) });
    expect(partitionAt(EVENTS, partitionStart(EVENTS, dec31, 2)).name).toBe('events_p202702');
    expect(partitionStart(EVENTS, Date.UTC(2027, 0, 1))).toBe(p.end);
  });

  it('cuts behavior points by UTC day, through a leap day', () => {
    const p = partitionAt(POINTS, partitionStart(POINTS, Date.UTC(2028, 1, 28, 12)));
    expect(p).toEqual({ name: 'behavior_points_p20280228', start: Date.UTC(2028, 1, 28), end: Date.UTC(2028, 1, 29) });
    expect(partitionAt(POINTS, partitionStart(POINTS, p.start, 1)).name).toBe('behavior_points_p20280229');
    expect(partitionAt(POINTS, partitionStart(POINTS, p.start, 2)).name).toBe('behavior_points_p20280301');
  });
});
