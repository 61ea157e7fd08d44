import { describe, expect, it } from 'vitest';
import { describeCheckpoints, describePauses, parseMetrics, pausesBetween } from './pauses.js';

/** A /metrics text as prom-client writes it, with two GC kinds. */
const metrics = (
  minor: [count: number, upTo10Ms: number, seconds: number],
  major: [number, number, number],
  loopMax: number,
  loopP99: number,
  commits: [count: number, upTo10Ms: number, events: number],
  proven?: number,
  checkpoints?: [wal: number, time: number, lull: number, seconds: number],
  flushes?: [slow: number, longest: number],
) =>
  [
    '# HELP vigil_nodejs_gc_duration_seconds Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    '# TYPE vigil_nodejs_gc_duration_seconds histogram',
    `vigil_nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor"} ${minor[1]}`,
    `vigil_nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor"} ${minor[1]}`,
    `vigil_nodejs_gc_duration_seconds_bucket{le="+Inf",kind="minor"} ${minor[0]}`,
    `vigil_nodejs_gc_duration_seconds_sum{kind="minor"} ${minor[2]}`,
    `vigil_nodejs_gc_duration_seconds_count{kind="minor"} ${minor[0]}`,
    `vigil_nodejs_gc_duration_seconds_bucket{le="0.01",kind="major"} ${major[1]}`,
    `vigil_nodejs_gc_duration_seconds_bucket{le="+Inf",kind="major"} ${major[0]}`,
    `vigil_nodejs_gc_duration_seconds_sum{kind="major"} ${major[2]}`,
    `vigil_nodejs_gc_duration_seconds_count{kind="major"} ${major[0]}`,
    `vigil_nodejs_eventloop_lag_max_seconds ${loopMax}`,
    `vigil_nodejs_eventloop_lag_p99_seconds ${loopP99}`,
    `vigil_group_commit_duration_seconds_bucket{le="0.005"} ${commits[1] - 1}`,
    `vigil_group_commit_duration_seconds_bucket{le="0.01"} ${commits[1]}`,
    `vigil_group_commit_duration_seconds_bucket{le="+Inf"} ${commits[0]}`,
    `vigil_group_commit_duration_seconds_sum 1.5`,
    `vigil_group_commit_duration_seconds_count ${commits[0]}`,
    `vigil_group_commit_events_bucket{le="+Inf"} ${commits[0]}`,
    `vigil_group_commit_events_sum ${commits[2]}`,
    `vigil_group_commit_events_count ${commits[0]}`,
    ...(proven === undefined ? [] : [`vigil_fact_cache_unchecked_commits ${proven}`]),
    ...(checkpoints === undefined
      ? []
      : [
          `vigil_db_checkpoints_total{cause="wal"} ${checkpoints[0]}`,
          `vigil_db_checkpoints_total{cause="time"} ${checkpoints[1]}`,
          `vigil_db_checkpoints_total{cause="lull"} ${checkpoints[2]}`,
          `vigil_db_checkpoint_seconds_total ${checkpoints[3]}`,
        ]),
    ...(flushes === undefined ? [] : [`vigil_db_slow_wal_flushes_total ${flushes[0]}`, `vigil_db_wal_flush_max_seconds ${flushes[1]}`]),
    '',
  ].join('\n');

describe("a Vigil server's pauses from its /metrics", () => {
  it('counts the GCs and their time between two scrapes, and takes the event loop figures of the second', () => {
    const before = parseMetrics(metrics([100, 100, 0.2], [2, 1, 0.015], 0.5, 0.05, [50, 48, 120]));
    const after = parseMetrics(metrics([190, 189, 0.35], [4, 2, 0.045], 0.027, 0.0031, [4050, 4041, 9320]));
    const pauses = pausesBetween(before, after);
    expect(pauses).toEqual({
      loopMaxMs: 27,
      loopP99Ms: expect.closeTo(3.1, 6),
      gcs: 92,
      gcsOver10Ms: 2,
      gcMs: expect.closeTo(180, 6),
      majorGcMs: expect.closeTo(30, 6),
      threadGcs: 0,
      threadGcsOver10Ms: 0,
      threadGcMs: 0,
      threadMajorGcMs: 0,
      commits: 4000,
      commitEvents: 9200,
      commitsOver10Ms: 7,
      commitsProven: 0,
      checkpoints: 0,
      checkpointMs: 0,
      slowWalFlushes: 0,
      longestWalFlushMs: 0,
    });
    expect(describePauses(pauses)).toBe(
      "event loop's 10 ms ticks up to 27 ms apart (p99 3 ms); 92 GCs, 2 of them ≥ 10 ms, 180 ms in all (30 ms major); 4000 group commits of 2.3 events, 7 of them ≥ 10 ms",
    );
  });

  it('reads no group commits from a server that has no commit histograms', () => {
    const text = metrics([1, 1, 0.001], [0, 0, 0], 0.01, 0.001, [0, 0, 0]).replace(/^vigil_group_commit.*\n/gm, '');
    expect(parseMetrics(text).commits).toEqual({ total: 0, upTo10Ms: 0, events: 0, proven: 0 });
  });

  it("adds the commits written with a proof, on a server that counts them (PGlite's)", () => {
    const before = parseMetrics(metrics([1, 1, 0.001], [0, 0, 0], 0.01, 0.001, [50, 50, 100], 40));
    const after = parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130));
    expect(describePauses(pausesBetween(before, after))).toMatch(
      /100 group commits of 2\.0 events, 1 of them ≥ 10 ms, 90 written with their facts proven current$/,
    );
  });

  it("adds the embedded database's checkpoints, each of which holds every commit, when there were any", () => {
    const before = parseMetrics(metrics([1, 1, 0.001], [0, 0, 0], 0.01, 0.001, [50, 50, 100], 40, [1, 0, 0, 0.2]));
    const after = parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130, [1, 0, 1, 0.45]));
    expect(describePauses(pausesBetween(before, after))).toMatch(/90 written with their facts proven current; 1 checkpoint holding the database 250 ms$/);
    const none = parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130, [1, 0, 1, 0.45]));
    expect(describePauses(pausesBetween(after, none))).not.toMatch(/checkpoint/);
  });

  it("adds the embedded database's disk flushes of 10 ms or more, and the longest of the stretch, when it flushed", () => {
    const before = parseMetrics(metrics([1, 1, 0.001], [0, 0, 0], 0.01, 0.001, [50, 50, 100], 40, undefined, [3, 0.2]));
    const after = parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130, undefined, [5, 0.0421]));
    expect(describePauses(pausesBetween(before, after))).toMatch(/current; WAL flushes ≥ 10 ms: 2, the longest 42 ms$/);
    // On PostgreSQL there are no such series.
    const pg = parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130));
    expect(describePauses(pausesBetween(pg, pg))).not.toMatch(/flushes/);
  });

  it("describes the embedded database's checkpoints by cause over a whole run, and nothing without any", () => {
    const run = parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130, [1, 2, 3, 0.75]));
    expect(describeCheckpoints(run.checkpoints)).toBe('6 checkpoints (1 wal, 2 time, 3 lull), holding the database 750 ms in all');
    expect(describeCheckpoints(parseMetrics(metrics([2, 2, 0.002], [0, 0, 0], 0.01, 0.001, [150, 149, 300], 130)).checkpoints)).toBe('');
  });

  it("adds the embedded database thread's GCs, a heap of its own, when there were any", () => {
    // The thread's histogram is the main thread's under another name.
    const withThread = (minor: [number, number, number], major: [number, number, number]) => {
      const own = metrics(minor, major, 0.01, 0.001, [50, 50, 100]);
      const thread = own
        .split('\n')
        .filter((line) => line.startsWith('vigil_nodejs_gc_duration_seconds_'))
        .map((line) => line.replace('vigil_nodejs_gc_', 'vigil_db_thread_gc_'));
      return parseMetrics(`${own}${thread.join('\n')}\n`);
    };
    const pauses = pausesBetween(withThread([10, 10, 0.02], [1, 0, 0.012]), withThread([30, 29, 0.07], [3, 0, 0.05]));
    expect(pauses).toMatchObject({ gcs: 22, threadGcs: 22, threadGcsOver10Ms: 3, threadGcMs: expect.closeTo(88, 6), threadMajorGcMs: expect.closeTo(38, 6) });
    expect(describePauses(pauses)).toMatch(
      /88 ms in all \(38 ms major\); the database thread's 22 GCs, 3 of them ≥ 10 ms, 88 ms in all \(38 ms major\); 0 group commits/,
    );
  });
});
