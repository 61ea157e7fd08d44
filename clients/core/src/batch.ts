export interface BatchLimits {
  maxEvents: number;
  maxBytes: number;
}

/**
 * How many events from the head of the queue go into the next request: at most `maxEvents`, and a body of no more
 * than `maxBytes` (the envelope around the events, then the serialized events and the commas between them), but
 * always at least one so an event near the limit is still tried (and, if the server refuses it as too large,
 * dropped alone).
 *
 * @param sizes UTF-8 bytes of each queued event, oldest first.
 * @param envelopeBytes bytes of the body around the events array, its brackets included (2 for a bare array).
 */
export function batchCount(sizes: readonly number[], limits: BatchLimits, envelopeBytes = 2): number {
  let bytes = envelopeBytes;
  let count = 0;
  for (const size of sizes) {
    if (count >= limits.maxEvents) break;
    const next = bytes + size + (count > 0 ? 1 : 0);
    if (count > 0 && next > limits.maxBytes) break;
    bytes = next;
    count++;
  }
  return count;
}

/**
 * The batch limit after a 413: half of what was sent (rounded down), or null when a single event was refused,
 * which can never fit and is dropped.
 */
export function shrinkBatch(sent: number): number | null {
  return sent > 1 ? Math.floor(sent / 2) : null;
}

/** After a delivered batch the limit doubles back toward the default, so one large event does not slow the rest forever. */
export function growBatch(limit: number, max: number): number {
  return Math.min(max, limit * 2);
}

/** UTF-8 length of a string, without TextEncoder or Buffer (the core is runtime-neutral). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
