/**
 * Formatting shared by server and client components. Times are shown in the supervisor's time zone (the
 * browser's, remembered in a cookie so server-rendered pages use it too; see lib/server/time-zone.ts), named in
 * the text so a reader never has to guess; UTC until the browser has told it.
 */

export const DEFAULT_TIME_ZONE = 'UTC';

/** The zone when Intl knows it, else UTC: a cookie is user input. */
export function validTimeZone(value: string | null | undefined): string {
  if (!value || value.length > 64) return DEFAULT_TIME_ZONE;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(d: Date, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return { y: p.year, mo: p.month, d: p.day, h: p.hour, mi: p.minute, zone: timeZone === 'UTC' ? 'UTC' : p.timeZoneName };
}

export function formatDateTime(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  if (!value) return '—';
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '—';
  const p = partsIn(d, timeZone);
  return `${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi} ${p.zone}`;
}

export function formatBucketLabel(value: string, bucket: 'HOUR' | 'DAY' | 'WEEK', timeZone: string = DEFAULT_TIME_ZONE): string {
  const p = partsIn(new Date(value), timeZone);
  const day = `${p.mo}-${p.d}`;
  return bucket === 'HOUR' ? `${day} ${p.h}h` : day;
}

export function formatRelative(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return 'never';
  const d = typeof value === 'string' ? new Date(value) : value;
  const seconds = Math.round((now.getTime() - d.getTime()) / 1000);
  if (seconds < 0) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** How long until a future time (an expiry): `in 5 min`, `in 3 h`, `in 29 days`; a past one is `expired`. */
export function formatUntil(value: string | Date, now: Date = new Date()): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  const minutes = Math.floor((d.getTime() - now.getTime()) / 60_000);
  if (d <= now) return 'expired';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.floor(hours / 24)} days`;
}

const integer = new Intl.NumberFormat('en-US');
export const formatCount = (n: number | null | undefined) => (n == null ? '—' : integer.format(n));
export const formatScore = (n: number | null | undefined) => (n == null ? '—' : n.toFixed(2));
export const formatPercent = (n: number | null | undefined) => (n == null || !Number.isFinite(n) ? '—' : `${(n * 100).toFixed(1)} %`);

export type Severity = 'critical' | 'high' | 'medium' | 'low';

const severities: Record<string, Severity> = {
  emulator: 'critical',
  rooted: 'critical',
  hooked: 'critical',
  tor: 'critical',
  deactivated: 'critical',
  vpn: 'high',
  proxy: 'high',
  multi_user: 'high',
  bot: 'high',
  new_device: 'medium',
  unregistered: 'medium',
};

export const severityOf = (tag: string): Severity => severities[tag] ?? 'low';

export function scoreLevel(score: number): Severity {
  if (score >= 0.8) return 'critical';
  if (score >= 0.4) return 'high';
  if (score >= 0.1) return 'medium';
  return 'low';
}
