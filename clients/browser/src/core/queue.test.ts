import { describe, expect, it } from "vitest";
import { mapStore, throwingStore } from "../../test/fakes.js";
import { PersistentQueue, type QueuedEvent } from "./queue.js";

const ev = (id: string): QueuedEvent => ({ event: "login", event_id: id, timestamp: "2025-01-01T00:00:00.000Z", attempts: 0 });

describe("PersistentQueue", () => {
  it("writes through to storage so another instance (tab, reload) sees the events", () => {
    const store = mapStore();
    const a = new PersistentQueue(store, "q", 10);
    a.add(ev("1"));
    a.add(ev("2"));
    const b = new PersistentQueue(store, "q", 10);
    expect(b.all().map((e) => e.event_id)).toEqual(["1", "2"]);
    b.remove(["1"]);
    expect(a.all().map((e) => e.event_id)).toEqual(["2"]);
    a.bump(["2"]);
    expect(b.all()[0]?.attempts).toBe(1);
    a.remove(["2"]);
    expect(store.data.has("q")).toBe(false);
  });

  it("evicts the oldest events beyond its size and reports them", () => {
    const q = new PersistentQueue(mapStore(), "q", 2);
    q.add(ev("1"));
    q.add(ev("2"));
    expect(q.add(ev("3")).map((e) => e.event_id)).toEqual(["1"]);
    expect(q.all().map((e) => e.event_id)).toEqual(["2", "3"]);
  });

  it("keeps working in memory when storage throws or holds garbage", () => {
    const q = new PersistentQueue(throwingStore(), "q", 10);
    q.add(ev("1"));
    expect(q.all().map((e) => e.event_id)).toEqual(["1"]);
    const garbage = new PersistentQueue(mapStore({ q: "{not json" }), "q", 10);
    expect(garbage.all()).toEqual([]);
    const mixed = new PersistentQueue(mapStore({ q: JSON.stringify([ev("ok"), { event: 1 }, null]) }), "q", 10);
    expect(mixed.all().map((e) => e.event_id)).toEqual(["ok"]);
  });
});
