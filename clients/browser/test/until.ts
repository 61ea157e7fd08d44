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
