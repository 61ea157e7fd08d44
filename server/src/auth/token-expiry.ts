import { VigilError } from '../errors.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest expiry a token may be given in days (a hundred years; "never" is 0). */
export const MAX_TOKEN_DAYS = 36_500;

/** When a new token expires: at most one of the two; neither takes the configured default. */
export interface TokenExpiry {
  expiresAt?: Date | null;
  /** 0: never. */
  expiresInDays?: number | null;
}

const invalid = (path: string, message: string) => new VigilError('validation_failed', `${path} ${message}`, { errors: [{ path, message }] });

/** The expiry of a new token: an explicit date (in the future), a number of days (0: never) or the default days. */
export function tokenExpiry(expiry: TokenExpiry, defaultDays: number, now: Date): Date | null {
  const { expiresAt, expiresInDays } = expiry;
  if (expiresAt != null && expiresInDays != null) throw invalid('expiresAt', 'and expiresInDays exclude each other; give one');
  if (expiresAt != null) {
    if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now) throw invalid('expiresAt', 'must be a time in the future');
    return expiresAt;
  }
  const days = expiresInDays ?? defaultDays;
  if (!Number.isInteger(days) || days < 0 || days > MAX_TOKEN_DAYS)
    throw invalid('expiresInDays', `must be a whole number from 0 (never) to ${MAX_TOKEN_DAYS}`);
  return days === 0 ? null : new Date(now.getTime() + days * DAY_MS);
}
