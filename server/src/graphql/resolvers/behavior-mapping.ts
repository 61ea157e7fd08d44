import type { ZodError } from 'zod';
import type { BehaviorSummary } from '../../behaviors/definitions.js';
import type { FilterCondition } from '../../behaviors/config.js';
import { VigilError } from '../../errors.js';
import type {
  Behavior,
  BehaviorFilter,
  BehaviorFilterInput,
  BehaviorFilterOperatorEnum,
  BehaviorInput,
  BehaviorOperationEnum,
  BehaviorSourceEnum,
  BehaviorStatusEnum,
} from '../types/behavior.js';

/** Keeps only the keys given, so the config schema (strict, with defaults) sees what a config file would hold. */
const given = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== null));

function filterOf(input: BehaviorFilterInput, index: number): unknown {
  const condition = given({ field: input.field, operator: input.operator, value: input.value });
  if (input.event === undefined || input.event === null) return condition;
  if (Object.keys(condition).length === 0) return input.event;
  // Both forms at once: say so plainly rather than let the config schema report a failed union.
  const path = `input.filters.${index}.event`;
  const message = 'give either event (an event name) or field and operator (a condition), not both';
  throw new VigilError('validation_failed', `Invalid behavior: ${path} ${message}`, { errors: [{ path, message }] });
}

/** The GraphQL input as a config-file entry (snake_case), for the config file's own schema to validate. */
export function configOf(input: BehaviorInput): Record<string, unknown> {
  return given({
    name: input.name,
    description: input.description,
    group_by: input.groupBy,
    operation: input.operation,
    field: input.field,
    window_duration_seconds: input.windowDurationSeconds,
    filters: input.filters?.map(filterOf),
    return_values: input.returnValues,
  });
}

const camel = (segment: string) => segment.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A config-schema failure as `validation_failed` with paths into the GraphQL input (`input.filters.0.value`). */
export function behaviorValidationError(error: ZodError): VigilError {
  const errors = error.issues.map((issue) => ({
    path: ['input', ...issue.path.map((s) => (typeof s === 'string' ? camel(s) : String(s)))].join('.'),
    message: issue.message,
  }));
  return new VigilError('validation_failed', `Invalid behavior: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, { errors });
}

const filterOut = (entry: string | FilterCondition): BehaviorFilter =>
  typeof entry === 'string'
    ? { event: entry, field: null, operator: null, value: null }
    : { event: null, field: entry.field, operator: entry.operator as BehaviorFilterOperatorEnum, value: entry.value ?? null };

export function toBehavior(s: BehaviorSummary): Behavior {
  const d = s.definition;
  return {
    id: s.id,
    name: s.name,
    description: d.description,
    groupBy: d.group_by,
    operation: d.operation as BehaviorOperationEnum,
    field: d.field ?? null,
    windowDurationSeconds: d.window_duration_seconds,
    filters: d.filters.map(filterOut),
    returnValues: d.return_values,
    source: s.source as BehaviorSourceEnum,
    status: s.status as BehaviorStatusEnum,
    backfilledEvents: s.backfilled_events,
  };
}
