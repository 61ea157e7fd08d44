/**
 * Rule conditions, written as in a fraud team's notes: `behaviors.tx_count_1h.count > 5`,
 * `properties.amount >= 1000`, `email_intel.disposable == true`, `tags contains vpn`, `identity exists`.
 */
export type Literal = number | string | boolean | null;
export type Operator = '>' | '>=' | '<' | '<=' | '==' | '!=' | 'contains' | 'exists' | 'missing';

export interface Condition {
  path: string[];
  operator: Operator;
  value: Literal;
  /** The source text, for score_breakdown and error messages. */
  text: string;
}

const PATTERN = /^\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*(>=|<=|==|!=|>|<|contains\b|exists\b|missing\b)\s*(.*?)\s*$/;

function literal(raw: string): Literal {
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return Number(raw);
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(raw);
  if (quoted) return quoted[1] ?? quoted[2] ?? '';
  return raw;
}

/** Parses one condition; returns an error sentence instead of throwing, for the config validator. */
export function parseCondition(text: string): Condition | string {
  const m = PATTERN.exec(text);
  if (!m) return `cannot read "${text}": write <path> <op> <value>, with op one of > >= < <= == != contains, or <path> exists|missing`;
  const [, path, op, rest] = m as unknown as [string, string, Operator, string];
  if (op === 'exists' || op === 'missing') {
    if (rest !== '') return `"${text}": ${op} takes no value`;
    return { path: path.split('.'), operator: op, value: null, text: text.trim() };
  }
  if (rest === '') return `"${text}": ${op} needs a value`;
  const value = literal(rest);
  if (['>', '>=', '<', '<='].includes(op) && typeof value !== 'number') return `"${text}": ${op} needs a number`;
  return { path: path.split('.'), operator: op, value, text: text.trim() };
}

function resolve(context: unknown, path: string[]): unknown {
  let current = context;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/** A condition over a missing value is false (except `missing`), so a rule never fires on absent data. */
export function holds(c: Condition, context: unknown): boolean {
  const actual = resolve(context, c.path);
  switch (c.operator) {
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'missing':
      return actual === undefined || actual === null;
    case 'contains':
      return Array.isArray(actual) ? actual.some((v) => v === c.value) : typeof actual === 'string' && actual.includes(String(c.value));
    case '==':
      return actual === c.value || (actual !== undefined && actual !== null && typeof actual !== 'object' && String(actual) === String(c.value));
    case '!=':
      return actual !== undefined && actual !== null && !(actual === c.value || String(actual) === String(c.value));
    default: {
      const n = asNumber(actual);
      if (!Number.isFinite(n)) return false;
      const v = c.value as number;
      return c.operator === '>' ? n > v : c.operator === '>=' ? n >= v : c.operator === '<' ? n < v : n <= v;
    }
  }
}
