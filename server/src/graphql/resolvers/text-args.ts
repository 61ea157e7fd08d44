import { unstorable } from '../../db/safe-text.js';
import { VigilError } from '../../errors.js';

/**
 * Refuses text arguments PostgreSQL cannot compare (a NUL, a lone surrogate) as `validation_failed`, before they
 * reach a query: `path` names the argument, and an input object's string fields are checked one by one.
 */
export function storable<T>(value: T, path: string): T {
  const fields: [string, unknown][] =
    typeof value === 'string' ? [[path, value]] : value && typeof value === 'object' ? Object.entries(value).map(([k, v]) => [`${path}.${k}`, v]) : [];
  const errors = fields.flatMap(([p, v]) => {
    const message = typeof v === 'string' ? unstorable(v) : undefined;
    return message ? [{ path: p, message }] : [];
  });
  if (errors.length > 0) {
    throw new VigilError('validation_failed', `Invalid ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, { errors });
  }
  return value;
}
