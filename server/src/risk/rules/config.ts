import { z } from 'zod';
import { parseCondition, type Condition } from './condition.js';

const conditionText = z.string().transform((text, ctx) => {
  const parsed = parseCondition(text);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/**
 * `score.rules[]`: when every condition in `when` holds, the rule adds `weight` to the score (as a
 * `rule:<name>` contribution) and/or puts `tag` in current_tags (weighted by `score.weights[tag]`, default 0).
 */
export const scoreRuleSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'letters, digits and _, starting with a letter'),
    when: z.union([conditionText.transform((c) => [c]), z.array(conditionText).min(1)]),
    weight: z.number().min(0).max(1).optional(),
    tag: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'lowercase letters, digits and _')
      .optional(),
  })
  .strict()
  .refine((r) => r.weight !== undefined || r.tag !== undefined, { message: 'a rule needs a weight, a tag, or both' });

export const scoreRulesSchema = z
  .array(scoreRuleSchema)
  .default([])
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((r, i) => {
      if (seen.has(r.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `rule ${r.name} is defined twice` });
      seen.add(r.name);
    });
  });

export type ScoreRule = z.infer<typeof scoreRuleSchema>;
export type { Condition };
