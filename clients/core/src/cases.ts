import type { Attempt, Decision } from './decide.js';

/** One case of clients/policy-cases.json, with its defaults filled in. */
export interface PolicyCase {
  name: string;
  attempt: Attempt;
  expect: Decision;
}

interface RawCase {
  name: string;
  status: number | null;
  retry_after?: string | null;
  failure?: number;
  attempts?: number;
  random?: number;
  batch_size?: number;
  expect: { decision: string; delay_ms?: number; counts_as_attempt?: boolean; batch_limit?: number; reason?: string };
}

/**
 * Reads the parsed policy-cases.json into attempts and expected decisions. Each client's tests read the file
 * themselves (the core touches no file system) and feed the cases through their own code paths.
 */
export function readPolicyCases(json: unknown): { nowMs: number; cases: PolicyCase[] } {
  const file = json as { now: string; cases: RawCase[] };
  const nowMs = Date.parse(file.now);
  const cases = file.cases.map(
    (c): PolicyCase => ({
      name: c.name,
      attempt: {
        status: c.status,
        retryAfter: c.retry_after ?? null,
        nowMs,
        failure: c.failure ?? 1,
        attempts: c.attempts ?? 1,
        random: c.random ?? 0,
        batchSize: c.batch_size ?? 1,
      },
      expect: toDecision(c.expect),
    }),
  );
  return { nowMs, cases };
}

function toDecision(e: RawCase['expect']): Decision {
  switch (e.decision) {
    case 'done':
      return { kind: 'done' };
    case 'give_up':
      return { kind: 'give_up' };
    case 'retry':
      return { kind: 'retry', delayMs: e.delay_ms ?? Number.NaN, countsAsAttempt: e.counts_as_attempt ?? true };
    case 'shrink':
      return { kind: 'shrink', batchLimit: e.batch_limit ?? Number.NaN };
    case 'drop':
      return { kind: 'drop', reason: e.reason === 'too_large' ? 'too_large' : 'refused' };
    default:
      throw new Error(`policy-cases.json: unknown decision ${e.decision}`);
  }
}
