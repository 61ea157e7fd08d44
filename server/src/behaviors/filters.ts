import type { BehaviorConfig, FilterCondition } from './config.js';
import { readField, type EventFacts } from './fields.js';

type Scalar = string | number | boolean;

// Values compare as the caller wrote them, except that "5" and 5 are the same: JSON from different SDKs differs.
const same = (a: unknown, b: Scalar) => a === b || (typeof a !== 'object' && a !== undefined && String(a) === String(b));

function holds(facts: EventFacts, c: FilterCondition): boolean {
  const actual = readField(facts, c.field);
  switch (c.operator) {
    case 'exists':
      return (actual !== undefined && actual !== null) === (c.value ?? true);
    case 'equals':
      return same(actual, c.value as Scalar);
    case 'not_equals':
      return !same(actual, c.value as Scalar);
    case 'in':
      return (c.value as Scalar[]).some((v) => same(actual, v));
    case 'gt':
    case 'lt': {
      const n = typeof actual === 'number' ? actual : typeof actual === 'string' && actual.trim() !== '' ? Number(actual) : NaN;
      if (!Number.isFinite(n)) return false;
      return c.operator === 'gt' ? n > (c.value as number) : n < (c.value as number);
    }
  }
}

/** Compiles a behavior's filters into one predicate: event name in the listed names (if any) and every condition. */
export function compileFilters(filters: BehaviorConfig['filters']): (facts: EventFacts) => boolean {
  const names = new Set(filters.filter((f): f is string => typeof f === 'string'));
  const conditions = filters.filter((f): f is FilterCondition => typeof f !== 'string');
  return (facts) => (names.size === 0 || names.has(facts.name)) && conditions.every((c) => holds(facts, c));
}
