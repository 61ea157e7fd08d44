export interface ScoreContribution {
  /** The tag that added risk, or `rule:<name>` for a score rule. */
  tag: string;
  /** Its configured weight in [0, 1]. */
  weight: number;
  /** How much it raised the score; contributions sum to the score. */
  contribution: number;
}

export interface Score {
  risk_score: number;
  score_breakdown: ScoreContribution[];
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * score = 1 − Π(1 − wᵢ) over the tags present: a noisy-OR. It stays in [0, 1], never drops when a tag is added
 * (each factor is ≤ 1), and one tag of weight w alone gives exactly w, so a Critical weight at or above the block
 * threshold blocks by itself. Contributions are the increments in descending-weight order, so they sum to the score.
 */
export function scoreTags(
  tags: readonly string[],
  weights: Readonly<Record<string, number>>,
  /** Fired score rules (`rule:<name>`), each a factor like a tag's. */
  rules: readonly { name: string; weight: number }[] = [],
): Score {
  const clamp = (w: number) => Math.min(1, Math.max(0, w));
  const weighted = [
    ...[...new Set(tags)].map((tag) => ({ tag, weight: clamp(weights[tag] ?? 0) })),
    ...rules.map((r) => ({ tag: r.name, weight: clamp(r.weight) })),
  ].sort((a, b) => b.weight - a.weight || a.tag.localeCompare(b.tag));
  let remaining = 1;
  const breakdown: ScoreContribution[] = [];
  for (const { tag, weight } of weighted) {
    const contribution = remaining * weight;
    remaining -= contribution;
    breakdown.push({ tag, weight, contribution: round(contribution) });
  }
  return { risk_score: round(1 - remaining), score_breakdown: breakdown };
}
