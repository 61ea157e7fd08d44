import 'server-only';

/** Where the Vigil server is; only the console's server side ever talks to it. */
export function apiUrl(): string {
  return (process.env.VIGIL_API_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
}

/** Score at or above which an event counts as risky on the overview (the server's default block threshold). */
export function riskyThreshold(): number {
  const value = Number(process.env.VIGIL_CONSOLE_RISKY_SCORE ?? '0.8');
  return Number.isFinite(value) && value > 0 && value <= 1 ? value : 0.8;
}
