/**
 * What behaviors read of an event. Both live events (at ingestion) and stored rows (at backfill) are turned into
 * this one shape, so a behavior counts the same event the same way however it reaches the engine.
 */
export interface EventFacts {
  name: string;
  identity: string | null;
  deviceId: string | null;
  handprintId: string;
  ip: string | null;
  sessionId: string | null;
  properties: Record<string, unknown>;
  /** Event time, epoch milliseconds. */
  at: number;
  /** When Vigil received it, epoch milliseconds: decides whether ingestion or the backfill counts it. */
  receivedAt: number;
}

/** `properties.a.b`: the key `a.b` if present, else the nested path a → b. */
function property(properties: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(properties, path)) return properties[path];
  let current: unknown = properties;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The raw value of a field, `undefined` when absent. */
export function readField(facts: EventFacts, field: string): unknown {
  switch (field) {
    case 'event':
      return facts.name;
    case 'identity':
      return facts.identity ?? undefined;
    case 'device_id':
      return facts.deviceId ?? undefined;
    case 'handprint_id':
      return facts.handprintId;
    case 'ip_address':
      return facts.ip ?? undefined;
    case 'session_id':
      return facts.sessionId ?? undefined;
    default:
      return field.startsWith('properties.') ? property(facts.properties, field.slice('properties.'.length)) : undefined;
  }
}

/** A field as a string key (group keys, unique values): strings as is, other scalars and objects as JSON. */
export function fieldText(facts: EventFacts, field: string): string | null {
  const value = readField(facts, field);
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // PostgreSQL text cannot hold NUL.
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

/** A field as a number for `sum`: finite numbers, and numeric strings ("12.5"); anything else is skipped. */
export function fieldNumber(facts: EventFacts, field: string): number | null {
  const value = readField(facts, field);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}
