import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CpuProfile } from './concerns.js';

describe('the profiler preload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preload-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('profiles from one SIGUSR2 to the next and writes each window to a file of its own', async () => {
    process.env.BENCH_PROFILE_FILE = join(dir, 'p');
    try {
      await import('./preload.js');
    } finally {
      delete process.env.BENCH_PROFILE_FILE;
    }
    for (const window of [1, 2]) {
      process.kill(process.pid, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 20)); // the signal's handler runs on the event loop
      const until = Date.now() + 50;
      while (Date.now() < until) {} // something to sample
      process.kill(process.pid, 'SIGUSR2');
      const file = join(dir, `p-${window}.cpuprofile`);
      for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
      const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
      // 50 ms busy at one sample each 1 ms, but how many samples land depends on the machine's load (a CI run on two
      // cores took exactly 10 once): that the window was sampled at all is what is checked, not a count.
      expect(profile.samples.length).toBeGreaterThan(0);
      expect(profile.nodes.length).toBeGreaterThan(0);
    }
  });
});
