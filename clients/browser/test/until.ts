/** Polls until `read` gives a value (a request the page sent has reached the test server), or fails after the timeout. */
export async function until<T>(read: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `work`, or an error naming `what` once `timeoutMs` has passed: a step of a browser test that hangs (in Chromium or
 * the driver, never answering) fails as that step, instead of as the whole test's timeout.
 */
export async function within<T>(work: Promise<T>, what: string, timeoutMs = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
