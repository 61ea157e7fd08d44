/**
 * Milliseconds to wait according to a Retry-After header (delay-seconds or HTTP-date, RFC 9110
 * §10.2.3), or undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only an HTTP-date (it names a weekday and month); Date.parse would also accept "-5".
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
