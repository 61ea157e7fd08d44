import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { cpuSecondsOf, mainThreadSecondsOf, perEvent, reapedChildrenSecondsOf, runQueueSeconds, type CpuSample } from './cpu.js';

describe('run-queue delay', () => {
  it('reads how long a process waited for a CPU from the kernel, and nothing of a process that is not there', () => {
    const before = runQueueSeconds(process.pid);
    expect(before).toBeGreaterThanOrEqual(0);
    // Busy for a while (which need not add any wait): the count never goes back.
    const until = Date.now() + 20;
    while (Date.now() < until) {}
    expect(runQueueSeconds(process.pid)).toBeGreaterThanOrEqual(before!);
    expect(runQueueSeconds(2 ** 22 + 1)).toBeUndefined();
    expect(runQueueSeconds(undefined)).toBeUndefined();
  });
});

describe('main thread CPU', () => {
  it("tells a process's main thread from its other threads", async () => {
    const main = mainThreadSecondsOf(process.pid);
    const others = cpuSecondsOf(process.pid) - main;
    // 300 ms of CPU on another thread (counted on the thread itself: a busy machine stretches wall time) while this
    // one waits for it.
    const worker = new Worker(
      `const { readFileSync } = require('node:fs');
       const used = () => { const stat = readFileSync('/proc/thread-self/stat', 'utf8'); const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
       const start = used();
       while (used() - start < 0.3) {}`,
      { eval: true },
    );
    await new Promise((resolve) => worker.once('exit', resolve));
    const mainAfter = mainThreadSecondsOf(process.pid);
    expect(cpuSecondsOf(process.pid) - mainAfter - others).toBeGreaterThanOrEqual(0.25);
    expect(mainAfter - main).toBeLessThan(0.25);
    expect(mainThreadSecondsOf(2 ** 22 + 1)).toBe(0);
  });
});

describe('PostgreSQL backends that exit during a measurement', () => {
  it('are found in the CPU of the parent that reaped them', async () => {
    const before = reapedChildrenSecondsOf(process.pid);
    const child = spawn(process.execPath, ['-e', 'const end = process.cpuUsage().user + 300000; while (process.cpuUsage().user < end) {}']);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(reapedChildrenSecondsOf(process.pid) - before).toBeGreaterThanOrEqual(0.25);
    expect(reapedChildrenSecondsOf(2 ** 22 + 1)).toBe(0);
  });

  it('count for what they used after the first sample, neither more nor less', () => {
    const sample = (postgres: [number, number][], postgresExited: number): CpuSample => ({
      server: 0,
      serverMain: 0,
      postgres: new Map(postgres),
      postgresExited,
      generator: 0,
    });
    // Backend 2 had used 1 s at the first sample and 1.5 s when it exited; backend 3 started in between.
    const before = sample(
      [
        [1, 2],
        [2, 1],
      ],
      5,
    );
    const after = sample(
      [
        [1, 3],
        [3, 0.25],
      ],
      6.5,
    );
    expect(perEvent(before, after, 1000).postgres).toBeCloseTo(((1 + 0.5 + 0.25) * 1e6) / 1000);
  });
});
