import { z } from 'zod';

/** The event fields a behavior can read: built-in fields, or `properties.<key>` (nested keys with dots). */
export const BUILTIN_FIELDS = ['event', 'identity', 'device_id', 'handprint_id', 'ip_address', 'session_id'] as const;
export const GROUP_BY_FIELDS = ['identity', 'device_id', 'handprint_id', 'ip_address', 'session_id'] as const;
export const FILTER_FIELDS = ['event', 'identity', 'device_id', 'ip_address'] as const;

/** 1 second to 90 days. */
export const MIN_WINDOW_SECONDS = 1;
export const MAX_WINDOW_SECONDS = 90 * 24 * 60 * 60;
/** `return_values` lists at most this many distinct values. */
export const MAX_RETURN_VALUES = 100;

const propertyField = z.string().regex(/^properties\.[^\s]+$/, 'must be properties.<key>');
const oneOf = <T extends readonly [string, ...string[]]>(names: T) => z.enum(names);

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const filterConditionSchema = z
  .object({
    field: z.union([oneOf(FILTER_FIELDS), propertyField]),
    operator: z.enum(['equals', 'not_equals', 'in', 'exists', 'gt', 'lt']),
    value: z.union([scalar, z.array(scalar).min(1)]).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['value'], message });
    if (c.operator === 'in' && !Array.isArray(c.value)) issue('`in` needs a list value');
    if ((c.operator === 'equals' || c.operator === 'not_equals') && (c.value === undefined || Array.isArray(c.value))) {
      issue(`\`${c.operator}\` needs a single value`);
    }
    if ((c.operator === 'gt' || c.operator === 'lt') && typeof c.value !== 'number') issue(`\`${c.operator}\` needs a number`);
    if (c.operator === 'exists' && c.value !== undefined && typeof c.value !== 'boolean') issue('`exists` takes true or false');
  });

/**
 * A behavior as written in the config file (and accepted by the admin service API). `filters` is a list: strings
 * are event names (the event must be one of them), objects are conditions (all must hold).
 */
export const behaviorConfigSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'letters, digits and _, starting with a letter, at most 64'),
    description: z.string().max(500).default(''),
    group_by: z.union([oneOf(GROUP_BY_FIELDS), propertyField]),
    operation: z.enum(['count', 'sum', 'unique']),
    field: z.union([oneOf(BUILTIN_FIELDS), propertyField]).optional(),
    window_duration_seconds: z.number().int().min(MIN_WINDOW_SECONDS).max(MAX_WINDOW_SECONDS),
    filters: z.array(z.union([z.string().min(1), filterConditionSchema])).default([]),
    return_values: z.boolean().default(false),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.operation === 'sum' && !b.field?.startsWith('properties.')) {
      ctx.addIssue({ code: 'custom', path: ['field'], message: '`sum` needs field: properties.<numeric key>' });
    }
    if (b.operation === 'unique' && !b.field) ctx.addIssue({ code: 'custom', path: ['field'], message: '`unique` needs a field' });
    if (b.operation === 'count' && b.field) ctx.addIssue({ code: 'custom', path: ['field'], message: '`count` takes no field' });
    if (b.return_values && b.operation !== 'unique') {
      ctx.addIssue({ code: 'custom', path: ['return_values'], message: 'only `unique` behaviors can return values' });
    }
  });

/** The `behaviors` list; names must be unique. */
export const behaviorsConfigSchema = z
  .array(behaviorConfigSchema)
  .default([])
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((b, i) => {
      if (seen.has(b.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `behavior ${b.name} is defined twice` });
      seen.add(b.name);
    });
  });

export type BehaviorConfig = z.infer<typeof behaviorConfigSchema>;
export type FilterCondition = z.infer<typeof filterConditionSchema>;
