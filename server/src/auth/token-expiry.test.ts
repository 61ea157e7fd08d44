import { describe, expect, it } from 'vitest';
import { VigilError } from '../errors.js';
import { tokenExpiry } from './token-expiry.js';

const now = new Date('2026-03-01T12:00:00Z');
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof VigilError ? { code: error.code, message: error.message } : error;
  }
  return undefined;
};

describe('token expiry', () => {
  it('takes the configured default when none is given; a default of 0 means never', () => {
    expect(tokenExpiry({}, 90, now)).toEqual(new Date('2026-05-30T12:00:00Z'));
    expect(tokenExpiry({ expiresAt: null, expiresInDays: null }, 90, now)).toEqual(new Date('2026-05-30T12:00:00Z'));
    expect(tokenExpiry({}, 0, now)).toBeNull();
  });

  it('takes days (0: never) or a future time', () => {
    expect(tokenExpiry({ expiresInDays: 1 }, 90, now)).toEqual(new Date('2026-03-02T12:00:00Z'));
    expect(tokenExpiry({ expiresInDays: 0 }, 90, now)).toBeNull();
    expect(tokenExpiry({ expiresAt: new Date('2027-01-01T00:00:00Z') }, 90, now)).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('refuses both at once, a past or invalid time, and days out of range, with validation_failed', () => {
    expect(refusal(() => tokenExpiry({ expiresAt: new Date('2027-01-01'), expiresInDays: 3 }, 90, now))).toMatchObject({
      code: 'validation_failed',
      message: /exclude each other/,
    });
    expect(refusal(() => tokenExpiry({ expiresAt: now }, 90, now))).toMatchObject({ code: 'validation_failed', message: /future/ });
    expect(refusal(() => tokenExpiry({ expiresAt: new Date('nope') }, 90, now))).toMatchObject({ code: 'validation_failed' });
    for (const days of [-1, 1.5, 36_501, Number.NaN]) {
      expect(refusal(() => tokenExpiry({ expiresInDays: days }, 90, now))).toMatchObject({ code: 'validation_failed', message: /expiresInDays/ });
    }
  });
});
