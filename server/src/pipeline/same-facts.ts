/**
 * Whether two cached facts hold the same data: primitives equal (`===`), arrays of the same facts in the same order,
 * plain objects with the same keys holding the same facts. Anything else (a Date, a Map, a class instance) is never
 * the same, so a caller keeps the newer one. Nesting deeper than a few levels counts as different, which costs a
 * caller nothing but the saving.
 */
export function sameFacts(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 4) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameFacts(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !sameFacts((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
