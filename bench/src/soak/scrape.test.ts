import { describe, expect, it } from 'vitest';
import { metricValue } from './scrape.js';

describe('metricValue', () => {
  const text = [
    '# HELP vigil_nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.',
    '# TYPE vigil_nodejs_heap_size_used_bytes gauge',
    'vigil_nodejs_heap_size_used_bytes 12345678',
    'vigil_nodejs_eventloop_lag_p99_seconds 0.012 1700000000000',
    'vigil_nodejs_eventloop_lag_p99_seconds_extra 9',
  ].join('\n');

  it('reads an unlabelled sample, with or without a timestamp', () => {
    expect(metricValue(text, 'vigil_nodejs_heap_size_used_bytes')).toBe(12345678);
    expect(metricValue(text, 'vigil_nodejs_eventloop_lag_p99_seconds')).toBe(0.012);
  });

  it('is NaN for a metric that is not there', () => {
    expect(metricValue(text, 'vigil_nodejs_heap_size_total_bytes')).toBeNaN();
  });
});
