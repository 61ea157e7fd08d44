/**
 * What an erasure replaces and with what: each erased value (the identity, its e-mail addresses and phone numbers,
 * the IP addresses of its own events) mapped to a pseudonym.
 */
export interface Replacements {
  /** Value → pseudonym, for values whose case matters (an identity: `Ann` and `ann` may be two people). */
  readonly exact: ReadonlyMap<string, string>;
  /** Lowercased value → pseudonym, for values whose case carries no meaning (e-mail addresses). */
  readonly caseless: ReadonlyMap<string, string>;
  /**
   * The values also replaced where they appear inside a longer string (a free-text property quoting an address).
   * Short values (an identity `42`, an IP address) replace only a whole string equal to them, so erasing them
   * cannot rewrite unrelated numbers and words.
   */
  readonly inside: readonly RegExp[];
}

export interface Erased {
  value: string;
  pseudonym: string;
  /** Case-insensitive match. */
  caseless: boolean;
  /** Also replaced inside longer strings (when at least MIN_INSIDE_LENGTH long). */
  inside: boolean;
}

/** Below this length a value is replaced only where a whole string equals it. */
export const MIN_INSIDE_LENGTH = 5;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function alternation(values: string[], flags: string): RegExp[] {
  if (values.length === 0) return [];
  // Longest first, so an address is replaced whole before a shorter value inside it.
  values.sort((a, b) => b.length - a.length);
  return [new RegExp(values.map(escapeRegExp).join('|'), flags)];
}

export function replacements(values: Iterable<Erased>): Replacements {
  const exact = new Map<string, string>();
  const caseless = new Map<string, string>();
  const inside = { exact: [] as string[], caseless: [] as string[] };
  for (const e of values) {
    const key = e.caseless ? e.value.toLowerCase() : e.value;
    const map = e.caseless ? caseless : exact;
    if (!key || map.has(key)) continue;
    map.set(key, e.pseudonym);
    if (e.inside && key.length >= MIN_INSIDE_LENGTH) (e.caseless ? inside.caseless : inside.exact).push(key);
  }
  return { exact, caseless, inside: [...alternation(inside.exact, 'gu'), ...alternation(inside.caseless, 'giu')] };
}

const whole = (text: string, r: Replacements) => r.exact.get(text) ?? r.caseless.get(text.toLowerCase());

/** A string with every erased value in it replaced; the same string when there is none. */
export function rewriteText(text: string, r: Replacements): string {
  const replaced = whole(text, r);
  if (replaced !== undefined) return replaced;
  let out = text;
  for (const pattern of r.inside) out = out.replace(pattern, (found) => whole(found, r) ?? found);
  return out;
}

/** A JSON value with every string (object keys included) rewritten; numbers, booleans and null as they were. */
export function rewriteJson(value: unknown, r: Replacements): unknown {
  if (typeof value === 'string') return rewriteText(value, r);
  if (Array.isArray(value)) return value.map((v) => rewriteJson(v, r));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[rewriteText(k, r)] = rewriteJson(v, r);
    return out;
  }
  return value;
}

/**
 * Lowercased needles for a SQL prefilter (`strpos(lower(text), needle) > 0`): it finds every row `rewriteText`
 * would change (and some it would not, which are then left as they were).
 */
export const needles = (r: Replacements): string[] => [...new Set([...r.exact.keys(), ...r.caseless.keys()].map((k) => k.toLowerCase()))];

/** Every value → pseudonym pair, for exact-equality rewrites in SQL (group keys, links). */
export const pairs = (r: Replacements): [string, string][] => [...r.exact, ...r.caseless];
