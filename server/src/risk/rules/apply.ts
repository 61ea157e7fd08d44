import { holds } from './condition.js';
import type { ScoreRule } from './config.js';

export interface RuleContribution {
  /** `rule:<name>` in score_breakdown. */
  name: string;
  weight: number;
}

export interface FiredRules {
  tags: string[];
  contributions: RuleContribution[];
}

/**
 * Evaluates the rules over one event's facts (behaviors, properties, tags, intel, device). Rules see the tags of
 * the stages, not each other's tags, so their order never matters.
 */
export function applyRules(rules: readonly ScoreRule[], context: Record<string, unknown>): FiredRules {
  const fired: FiredRules = { tags: [], contributions: [] };
  for (const rule of rules) {
    if (!rule.when.every((c) => holds(c, context))) continue;
    if (rule.tag) fired.tags.push(rule.tag);
    if (rule.weight !== undefined) fired.contributions.push({ name: `rule:${rule.name}`, weight: rule.weight });
  }
  return fired;
}
