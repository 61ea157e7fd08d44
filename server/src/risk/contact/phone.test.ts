import { describe, expect, it } from 'vitest';
import { analyzePhone } from './phone.js';

describe('analyzePhone', () => {
  it('gives E.164, country and line type for valid numbers', () => {
    expect(analyzePhone('+33 6 12 34 56 78')).toEqual({ number: '+33 6 12 34 56 78', valid: true, e164: '+33612345678', country: 'FR', line_type: 'mobile' });
    expect(analyzePhone('+1 800 555 0100')).toMatchObject({ valid: true, line_type: 'toll_free', country: 'US' });
    expect(analyzePhone('020 7946 0958', 'gb')).toMatchObject({ valid: true, e164: '+442079460958', country: 'GB', line_type: 'fixed_line' });
  });

  it('says invalid for numbers it cannot place', () => {
    expect(analyzePhone('12345')).toMatchObject({ valid: false, line_type: null });
    expect(analyzePhone('not a phone')).toMatchObject({ valid: false, e164: null });
    expect(analyzePhone('06 12 34 56 78')).toMatchObject({ valid: false }); // national format without a country
  });
});
