import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli.js';

const WATCHDOG = fileURLToPath(new URL('../../dist/cli/watchdog.js', import.meta.url));

/** Runs `body` in a child with a 2 s watchdog; the child is killed at 60 s if nothing else ends it. */
function child(body: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const script = `import { startWatchdog } from ${JSON.stringify(WATCHDOG)}; const stop = startWatchdog(2); ${body}`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const deadline = setTimeout(() => proc.kill('SIGTERM'), 60_000);
  return new Promise((resolve) =>
    proc.on('exit', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stderr });
    }),
  );
}

describe('watchdog', () => {
  beforeAll(() => assertBuilt());

  it('ends a process whose event loop is held, saying why', async () => {
    const result = await child('setTimeout(() => { for (;;); }, 100);');
    expect(result.signal).toBe('SIGKILL');
    expect(result.stderr).toContain('the event loop has not run for 2 s');
  });

  it('leaves a process with a running event loop alone', async () => {
    const result = await child('setTimeout(() => { stop(); process.exit(0); }, 5000);');
    expect(result).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
