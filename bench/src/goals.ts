/**
 * The load benchmark's goals, judged on one run's figures and printed after its tables, so a run says by itself
 * whether Vigil meets them. Printed, never asserted: tests do not depend on timings.
 *
 * Targets measured at different moments are compared through their ratios to the baseline round run just before
 * each of them (Vigil ÷ floor = (Vigil ÷ bare) ÷ (floor ÷ bare)): the machine's drift between two targets' rounds
 * then cancels, as it does in every ratio this benchmark prints. CPU per event drifts far less and is compared as it
 * is: the floor's (server + PostgreSQL) over Vigil's, so that for both figures higher is better and 1 is the floor.
 */

/** What one target's rounds measured, as the goals read it. */
export interface TargetFigures {
  /** Median over rounds of events/s ÷ the bare route's events/s in the round just before. */
  perBare: number;
  /** Median CPU per event of the server and of PostgreSQL, µs. */
  cpuUs: number;
  /** p99 of each steady-rate round, ms. */
  steadyP99s: number[];
}

export interface Goal {
  name: string;
  value: string;
  target: string;
  met: boolean;
}

/** The goals of the figures present: PostgreSQL's need the floor, PGlite's ratio needs both Vigils. */
export function judge(figures: { pglite?: TargetFigures; postgres?: TargetFigures; floor?: TargetFigures }, limits = LIMITS): Goal[] {
  const { pglite, postgres, floor } = figures;
  const goals: Goal[] = [];
  // A ratio of two binary fractions lands a hair off its decimal value (0.08 ÷ 0.1 = 0.7999…): the margin keeps a
  // ratio exactly at its limit met.
  const atLeast = (name: string, value: number, min: number) => goals.push({ name, value: value.toFixed(2), target: `≥ ${min}`, met: value >= min - 1e-9 });
  const everyRound = (name: string, p99s: number[], max: number) =>
    goals.push({
      name,
      value: `${Math.max(...p99s).toFixed(1)} ms (worst of ${p99s.map((p) => p.toFixed(1)).join(' / ')})`,
      target: `≤ ${max} ms every round`,
      met: p99s.every((p) => p <= max),
    });
  if (postgres && floor) {
    atLeast('Vigil PostgreSQL ÷ durable floor, events/s', postgres.perBare / floor.perBare, limits.floorRatio);
    atLeast('Vigil PostgreSQL ÷ durable floor, CPU per event (floor µs ÷ Vigil µs)', floor.cpuUs / postgres.cpuUs, limits.floorRatio);
  }
  if (postgres) everyRound('Vigil PostgreSQL, steady p99', postgres.steadyP99s, limits.postgresP99Ms);
  if (pglite && postgres) atLeast('Vigil PGlite ÷ Vigil PostgreSQL, events/s', pglite.perBare / postgres.perBare, limits.pgliteRatio);
  if (pglite) everyRound('Vigil PGlite, steady p99', pglite.steadyP99s, limits.pgliteP99Ms);
  return goals;
}

export const LIMITS = { floorRatio: 0.75, pgliteRatio: 0.8, postgresP99Ms: 10, pgliteP99Ms: 15 };

export function formatGoals(goals: Goal[]): string {
  const width = Math.max(...goals.map((g) => g.name.length));
  const valueWidth = Math.max(...goals.map((g) => g.value.length));
  return goals.map((g) => `${g.name.padEnd(width)}  ${g.value.padEnd(valueWidth)}  ${g.target.padEnd(22)}  ${g.met ? 'met' : 'NOT met'}`).join('\n');
}
