import type { KeyValueStore } from "./types.js";

export interface QueuedEvent {
  event: string;
  identity?: string;
  properties?: Record<string, unknown>;
  /** Idempotency key: a resend after a lost response is stored once by the server. */
  event_id: string;
  /** When track() was called (ISO 8601), so late delivery keeps the real time. */
  timestamp: string;
  attempts: number;
}

/**
 * Events waiting for delivery, written to storage before any send is attempted. Every operation re-reads storage
 * so tabs sharing it see each other's changes; when storage is unavailable the queue lives in memory.
 */
export class PersistentQueue {
  private memory: QueuedEvent[] = [];

  constructor(
    private readonly store: KeyValueStore,
    private readonly key: string,
    private readonly maxSize: number,
  ) {}

  all(): QueuedEvent[] {
    try {
      const text = this.store.get(this.key);
      if (text !== null) {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) this.memory = parsed.filter(isQueuedEvent);
      } else {
        this.memory = [];
      }
    } catch {
      // Unreadable or corrupt storage: keep what this page knows.
    }
    return this.memory.slice();
  }

  /** Adds the event and returns the events evicted to respect maxSize (oldest first). */
  add(event: QueuedEvent): QueuedEvent[] {
    const events = this.all().filter((e) => e.event_id !== event.event_id);
    events.push(event);
    const evicted = events.length > this.maxSize ? events.splice(0, events.length - this.maxSize) : [];
    this.write(events);
    return evicted;
  }

  remove(eventIds: readonly string[]): void {
    const gone = new Set(eventIds);
    this.write(this.all().filter((e) => !gone.has(e.event_id)));
  }

  /** Records a failed attempt for these events. */
  bump(eventIds: readonly string[]): void {
    const hit = new Set(eventIds);
    this.write(this.all().map((e) => (hit.has(e.event_id) ? { ...e, attempts: e.attempts + 1 } : e)));
  }

  private write(events: QueuedEvent[]): void {
    this.memory = events;
    try {
      if (events.length === 0) this.store.remove(this.key);
      else this.store.set(this.key, JSON.stringify(events));
    } catch {
      // Quota or blocked storage: memory still holds the events for this page's lifetime.
    }
  }
}

function isQueuedEvent(x: unknown): x is QueuedEvent {
  const e = x as QueuedEvent;
  return (
    typeof e === "object" &&
    e !== null &&
    typeof e.event === "string" &&
    typeof e.event_id === "string" &&
    typeof e.timestamp === "string" &&
    typeof e.attempts === "number"
  );
}
