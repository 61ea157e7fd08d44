import { VigilError } from '../../errors.js';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 500;

/** `first` must be 1..500; GraphQL types cannot say so, so it is checked here with the REST error code. */
export function pageSize(first: number | null | undefined, field = 'first'): number {
  const n = first ?? PAGE_DEFAULT;
  if (!Number.isInteger(n) || n < 1 || n > PAGE_MAX) {
    throw new VigilError('validation_failed', `${field} must be between 1 and ${PAGE_MAX}`, {
      errors: [{ path: field, message: `must be between 1 and ${PAGE_MAX}` }],
    });
  }
  return n;
}

export function sublistSize(first: number | null | undefined, max: number, field = 'first'): number {
  const n = first ?? Math.min(20, max);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new VigilError('validation_failed', `${field} must be between 1 and ${max}`, { errors: [{ path: field, message: `must be between 1 and ${max}` }] });
  }
  return n;
}
