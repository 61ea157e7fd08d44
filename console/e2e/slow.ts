/**
 * Runs `work` and, while it has not finished, says every `everyMs` which of its steps it is at and for how long:
 * a suite's set-up that hangs under load otherwise ends as a bare "Hook timed out", naming no step.
 */
export async function sayingWhereSlow<T>(what: string, work: (step: (name: string) => void) => Promise<T>, everyMs = 30_000): Promise<T> {
  const began = Date.now();
  let at = { name: 'starting', since: began };
  const step = (name: string) => {
    at = { name, since: Date.now() };
  };
  const watch = setInterval(() => {
    const now = Date.now();
    console.warn(`${what}: ${Math.round((now - began) / 1000)} s in, at "${at.name}" for ${Math.round((now - at.since) / 1000)} s`);
  }, everyMs);
  watch.unref();
  try {
    return await work(step);
  } finally {
    clearInterval(watch);
  }
}
