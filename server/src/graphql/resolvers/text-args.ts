import { isStorableText, STORABLE_TEXT_MESSAGE } from '../../db/safe-text.js';
import { VigilError } from '../../errors.js';

/**
 * Refuses text arguments PostgreSQL cannot compare (a NUL, a lone surrogate) as `validation_failed`, before they
 * reach a query: `path` names the argument, and an input object's string fields are checked one by one.
 */
export function storable<T>(value: T, path: string): T {
  const bad: string[] = [];
  if (typeof value === 'string') {
    if (!isStorableText(value)) bad.push(path);
  } else if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) if (typeof field === 'string' && !isStorableText(field)) bad.push(`${path}.${key}`);
  }
  if (bad.length > 0) {
    throw new VigilError('validation_failed', `Invalid ${bad.join(', ')}: ${STORABLE_TEXT_MESSAGE}`, {
      errors: bad.map((p) => ({ path: p, message: STORABLE_TEXT_MESSAGE })),
    });
  }
  return value;
}
