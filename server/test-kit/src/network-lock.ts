import { spawn } from 'node:child_process';

/**
 * Runs `launch` (a browser) while holding VIGIL_NETWORK_LOCK shared, until the launched thing is closed. Chromium fails
 * every request in flight when the host's network interfaces change (net::ERR_NETWORK_CHANGED, on loopback too), and
 * podman's containers add and remove interfaces as they come and go: under `make test` (.ci/suites.sh sets the
 * variable) the container suite holds the lock exclusively while its containers run, so no Chromium is open then.
 * Without the variable this is just `launch()`.
 *
 * The lock is held by a child `flock` whose command waits on its standard input: closing that input, or this process
 * ending, releases it.
 */
export async function whileNetworkSteady<T extends { close(): Promise<void> }>(launch: () => Promise<T>, lock = process.env.VIGIL_NETWORK_LOCK): Promise<T> {
  if (!lock) return launch();
  const holder = spawn('flock', ['-s', lock, 'sh', '-c', 'echo held; exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const release = () =>
    new Promise<void>((done) => {
      if (holder.exitCode !== null || holder.signalCode !== null) return done();
      holder.once('exit', () => done());
      holder.stdin!.end();
    });
  // The container suite's run holds the lock for tens of seconds: a hook that times out meanwhile should say why.
  const waiting = setTimeout(() => console.warn(`launching Chromium waits for ${lock}: the container suite is running its containers`), 1000);
  await new Promise<void>((held, failed) => {
    holder.once('error', failed);
    holder.once('exit', (code) => failed(new Error(`flock -s ${lock} exited ${code} before holding the lock`)));
    holder.stdout!.once('data', () => held());
  }).finally(() => clearTimeout(waiting));
  holder.removeAllListeners('exit');
  // Held for as long as the browser is open, but never what keeps this process alive: its end releases the lock too.
  holder.unref();
  for (const stream of [holder.stdin, holder.stdout] as unknown as { unref?(): void }[]) stream.unref?.();
  try {
    const launched = await launch();
    const close = launched.close.bind(launched);
    launched.close = async () => {
      try {
        await close();
      } finally {
        await release();
      }
    };
    return launched;
  } catch (error) {
    await release();
    throw error;
  }
}
