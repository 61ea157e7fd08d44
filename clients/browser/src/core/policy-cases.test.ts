import { readFileSync } from "node:fs";
import { readPolicyCases } from "@vigil/client-core";
import { describe, expect, it } from "vitest";
import { countingRandom, ManualClock, mapStore, scriptedFetch } from "../../test/fakes.js";
import { createVigil } from "../browser/create.js";

// The shared client policy cases (clients/policy-cases.json), played through createVigil() and flush().
const { nowMs, cases } = readPolicyCases(JSON.parse(readFileSync(new URL("../../../policy-cases.json", import.meta.url), "utf8")));
const QUEUE_KEY = "vigil_queue:https://vigil.test/js";

describe("the shared policy cases, through createVigil()", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, { attempt, expect: decision }) => {
    const clock = new ManualClock(nowMs);
    // Earlier failures in a row: answered ones (503) for the attempts before this one, the rest without an answer.
    const answeredBefore = attempt.status === null ? 0 : attempt.attempts - 1;
    const script: Array<number | null> = Array.from({ length: attempt.failure - 1 }, (_, i) => (i < answeredBefore ? 503 : null));
    script.push(attempt.status);
    const http = scriptedFetch((req) => {
      if (req.url.endsWith("/collect")) {
        return { status: 200, body: { handprint_id: "hp", browser_token: "vbt1.t.s", expires_at: new Date(nowMs + 3_600_000).toISOString() } };
      }
      const events = req.body.events as unknown[];
      const status = script.length > 0 ? script.shift() : 200;
      if (status === null) return new TypeError("Failed to fetch");
      if (status !== undefined && (status < 200 || status >= 300)) {
        const headers: Record<string, string> = script.length === 0 && attempt.retryAfter ? { "Retry-After": attempt.retryAfter } : {};
        return { status, headers };
      }
      return { status: status ?? 200, body: { results: events.map((_, i) => ({ status: 200, event_id: `evt_${i}` })) } };
    });
    // Events a page left queued, so a batch of any size goes out in one request.
    const queued = Array.from({ length: attempt.batchSize }, (_, i) => ({
      event: `e${i}`,
      event_id: `wev_${i}`,
      timestamp: new Date(nowMs).toISOString(),
      attempts: 0,
    }));
    const storage = mapStore({ [QUEUE_KEY]: JSON.stringify(queued) });
    const vigil = createVigil({
      url: "https://vigil.test/js",
      fetch: http.fetch,
      clock,
      storage,
      randomBytes: countingRandom(),
      random: () => attempt.random,
      sources: [],
    });
    const eventRequests = () => http.requests.filter((r) => r.url.endsWith("/events"));

    await vigil.flush();
    for (let i = 0; i < attempt.failure - 1; i++) {
      clock.advance(clock.pending()[0]!);
      await vigil.flush();
    }

    switch (decision.kind) {
      case "retry":
        expect(eventRequests()).toHaveLength(attempt.failure);
        expect(clock.pending()).toEqual([decision.delayMs]);
        expect(JSON.parse(storage.data.get(QUEUE_KEY) ?? "[]")).toHaveLength(attempt.batchSize);
        break;
      case "give_up":
        // Given up and gone from storage; later events still wait out the pause the failures earned.
        expect(eventRequests()).toHaveLength(attempt.failure);
        expect(storage.data.has(QUEUE_KEY)).toBe(false);
        break;
      case "done":
      case "drop":
        expect(eventRequests()).toHaveLength(attempt.failure);
        expect(clock.pending()).toEqual([]);
        expect(storage.data.has(QUEUE_KEY)).toBe(false);
        break;
      case "shrink":
        // The smaller batch goes at once: no wait after a 413.
        expect((eventRequests()[1]!.body.events as unknown[]).length).toBe(decision.batchLimit);
        break;
    }
  });
});
