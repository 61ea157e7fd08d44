import { describe, expect, it } from 'vitest';
import { insightsBody } from '../../test/support/fake-transport.js';
import { VigilError } from './errors.js';
import { Insights, isInsightsData } from './insights.js';

describe('Insights', () => {
  const insights = new Insights({ ...insightsBody({ future_field: 1 }) } as never);

  it('hasTag and behavior read the service answer', () => {
    expect(insights.hasTag('new_device')).toBe(true);
    expect(insights.hasTag('tor')).toBe(false);
    expect(insights.behavior('logins_1h')).toEqual({ count: 3, sum: null, unique: null, values: null });
    expect(insights.behavior('missing')).toBeUndefined();
    expect(insights.behavior('toString')).toBeUndefined();
    expect(insights.deviceAgeDays).toBe(0);
    expect(insights.failOpen).toBe(false);
  });

  it('serialises as the service sent it, unknown fields included', () => {
    const json = JSON.parse(JSON.stringify(insights));
    expect(json).toEqual(insightsBody({ future_field: 1 }));
  });

  it('marks fail-open results without serialising the marker', () => {
    const failed = new Insights(insightsBody() as never, new VigilError('timeout', 'slow'));
    expect(failed.failOpen).toBe(true);
    expect(failed.error?.code).toBe('timeout');
    expect(JSON.stringify(failed)).not.toContain('failOpen');
  });

  it('recognises insights bodies', () => {
    expect(isInsightsData(insightsBody())).toBe(true);
    expect(isInsightsData({ results: [] })).toBe(false);
    expect(isInsightsData(null)).toBe(false);
  });
});
