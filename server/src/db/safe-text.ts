import { z } from 'zod';

/**
 * Text PostgreSQL can store and compare: no NUL (text refuses it) and well-formed Unicode (jsonb refuses lone
 * surrogates). Checked at the input boundary so such input is a 400, never a database error.
 */
export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && s.isWellFormed();
}

export const STORABLE_TEXT_MESSAGE = 'must be well-formed Unicode without NUL characters';

/** A zod string that PostgreSQL can store (see isStorableText). */
export const storableText = () => z.string().refine(isStorableText, STORABLE_TEXT_MESSAGE);
