import { VigilError } from '../errors.js';

// IANA names start with a letter ("UTC", "Europe/Paris", "Etc/GMT+5"). Offsets such as "+05:00" are refused:
// PostgreSQL reads them as POSIX zones, whose sign is the opposite of ISO 8601's.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

function invalid(name: string): VigilError {
  return new VigilError('validation_failed', `timeZone ${JSON.stringify(name)} is not an IANA time zone name (e.g. UTC, Europe/Paris)`, {
    errors: [{ path: 'timeZone', message: 'must be an IANA time zone name' }],
  });
}

/** The name as given, when it names an IANA time zone; otherwise a 400 (`validation_failed`). */
export function ianaTimeZone(name: string): string {
  if (name.length > 64 || !IANA_NAME.test(name)) throw invalid(name);
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    throw invalid(name);
  }
  return name;
}

/** PostgreSQL's "time zone not recognized" (its tz database may lack a name Node's has) as the same 400. */
export function refusedTimeZone(error: unknown, name: string): VigilError | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.cause?.code ?? e.code) === '22023' ? invalid(name) : undefined;
}
