import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { whileNetworkSteady } from './network-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-network-lock-'));
const lock = join(dir, 'network.lock');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the container suite could take the lock now (exclusively, without waiting). */
const exclusiveFree = () => {
  try {
    execFileSync('flock', ['-n', '-x', lock, 'true']);
    return true;
  } catch {
    return false;
  }
};

describe('whileNetworkSteady', () => {
  it('holds the network lock shared from before the launch until the launched browser is closed', async () => {
    let heldAtLaunch: boolean | undefined;
    let closed = false;
    const browser = await whileNetworkSteady(async () => {
      heldAtLaunch = !exclusiveFree();
      return { close: async () => void (closed = true) };
    }, lock);
    expect(heldAtLaunch).toBe(true);
    expect(exclusiveFree()).toBe(false);
    // Shared: another browser may open meanwhile.
    execFileSync('flock', ['-n', '-s', lock, 'true']);
    await browser.close();
    expect(closed).toBe(true);
    expect(exclusiveFree()).toBe(true);
  });

  it('releases the lock when the launch fails', async () => {
    await expect(whileNetworkSteady(() => Promise.reject(new Error('no browser')), lock)).rejects.toThrow('no browser');
    expect(exclusiveFree()).toBe(true);
  });

  it('waits while the lock is held exclusively (the container suite running its containers)', async () => {
    const done = join(dir, 'containers-done');
    // The "container suite" marks its end just before it lets the lock go.
    const container = spawn('flock', ['-x', lock, 'sh', '-c', `echo held; sleep 0.3; touch ${done}`]);
    await new Promise((held) => container.stdout.once('data', held));
    let doneAtLaunch: boolean | undefined;
    const browser = await whileNetworkSteady(async () => ((doneAtLaunch = existsSync(done)), { close: async () => {} }), lock);
    expect(doneAtLaunch).toBe(true);
    await browser.close();
    container.kill();
  });

  it('is the launch itself without a lock', async () => {
    const browser = { close: async () => {} };
    expect(await whileNetworkSteady(async () => browser, undefined)).toBe(browser);
  });
});
