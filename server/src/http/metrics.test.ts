import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';

describe('metrics', () => {
  it("counts the embedded database thread's garbage collections by kind, in the buckets of the main thread's", async () => {
    const metrics = new Metrics();
    metrics.databaseThreadGc('minor', 0.002);
    metrics.databaseThreadGc('minor', 0.004);
    metrics.databaseThreadGc('major', 0.02);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^vigil_db_thread_gc_duration_seconds_bucket\{le="0.01",kind="minor"\} 2$/m);
    expect(text).toMatch(/^vigil_db_thread_gc_duration_seconds_bucket\{le="0.01",kind="major"\} 0$/m);
    expect(text).toMatch(/^vigil_db_thread_gc_duration_seconds_bucket\{le="0.1",kind="major"\} 1$/m);
    expect(text).toMatch(/^vigil_db_thread_gc_duration_seconds_sum\{kind="minor"\} 0.006$/m);
    expect(text).toMatch(/^vigil_db_thread_gc_duration_seconds_count\{kind="major"\} 1$/m);
    // prom-client's buckets for vigil_nodejs_gc_duration_seconds.
    const buckets = [...text.matchAll(/^vigil_db_thread_gc_duration_seconds_bucket\{le="([^"]+)",kind="minor"\}/gm)].map((m) => m[1]);
    expect(buckets).toEqual(['0.001', '0.01', '0.1', '1', '2', '5', '+Inf']);
  });
});
