/** Formatting shared by server and client components; always UTC so server and browser render the same text. */

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '—';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export function formatBucketLabel(value: string, bucket: 'HOUR' | 'DAY'): string {
  const d = new Date(value);
  const day = `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return bucket === 'DAY' ? day : `${day} ${pad(d.getUTCHours())}h`;
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
