import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

export interface PhoneFacts {
  number: string;
  valid: boolean;
  e164: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** libphonenumber's type, lowercased: mobile, fixed_line, fixed_line_or_mobile, voip, toll_free, … ; null if unknown. */
  line_type: string | null;
}

/**
 * Parses with the full metadata ("max"), which knows line types. A number without a leading + needs a country:
 * `properties.phone_country` (ISO alpha-2).
 */
export function analyzePhone(raw: string, country?: string): PhoneFacts {
  const number = raw.trim();
  const hint = country && /^[A-Za-z]{2}$/.test(country) ? (country.toUpperCase() as CountryCode) : undefined;
  let parsed;
  try {
    parsed = parsePhoneNumberFromString(number, hint);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !parsed.isValid()) return { number, valid: false, e164: parsed?.number ?? null, country: parsed?.country ?? null, line_type: null };
  const type = parsed.getType();
  return { number, valid: true, e164: parsed.number, country: parsed.country ?? null, line_type: type ? type.toLowerCase() : null };
}
