import { describe, expect, it } from "vitest";
import { countingRandom, ManualClock, mapStore, scriptedFetch, throwingStore, type RecordedRequest } from "../../test/fakes.js";
import { createCore, type CoreOptions } from "./client.js";
import { resolveEndpoints } from "./endpoints.js";
import type { Collected } from "./types.js";

const collected: Collected = {
  components: { timezone: { value: { name: "UTC" }, ms: 1 } },
  device_signals: {
    version: 1,
    platform: "web",
    automation: {
      webdriver: false,
      headless_ua: false,
      plugins_missing: false,
      languages_missing: false,
      chrome_object_missing: false,
      zero_outer_size: false,
      software_renderer: false,
      navigator_overridden: false,
      automation_globals: false,
      permissions_inconsistent: false,
      ua_platform_mismatch: false,
      evidence: [],
      errors: {},
    },
  },
  ms: 12,
};

const QUEUE_KEY = "vigil_queue:https://vigil.test/js";

function collectReply(clock: ManualClock, n = 1) {
  return {
    status: 200,
    body: {
      handprint_id: "hp_one",
      device_id: "ignored-by-client",
      confidence: 0.93,
      is_new_handprint: n === 1,
      browser_token: `vbt1.token${n}.sig`,
      expires_at: new Date(clock.now() + 600_000).toISOString(),
    },
  };
}

function setup(
  events: (req: RecordedRequest, n: number) => Parameters<typeof scriptedFetch>[0] extends (r: RecordedRequest) => infer R ? R : never,
  extra: Partial<CoreOptions> = {},
) {
  const clock = new ManualClock();
  const store = mapStore();
  let collects = 0;
  let eventCalls = 0;
  const http = scriptedFetch((req) => (req.url.endsWith("/collect") ? collectReply(clock, ++collects) : events(req, ++eventCalls)));
  const options: CoreOptions = {
    endpoints: resolveEndpoints("https://vigil.test/js"),
    fetch: http.fetch,
    clock,
    randomBytes: countingRandom(),
    queueStore: store,
    deviceIdStores: [store],
    collect: async () => collected,
    ...extra,
  };
  return { core: createCore(options), clock, store, http, options, eventRequests: () => http.requests.filter((r) => r.url.endsWith("/events")) };
}

const ok = (req: RecordedRequest) => ({
  status: 200,
  body: { results: (req.body.events as unknown[]).map((_, i) => ({ status: 200, event_id: `evt_${i}` })) },
});

describe("track", () => {
  it("persists the event before sending it, then sends it with device, identity and browser token", async () => {
    let storedWhenSent: string | undefined;
    const t = setup((req) => {
      storedWhenSent = t.store.data.get(QUEUE_KEY);
      return ok(req);
    });
    t.core.identify("user-42");
    const result = await t.core.track("login", { method: "password" });
    expect(result).toEqual({ status: "sent", event_id: expect.stringMatching(/^wev_/) });
    expect(JSON.parse(storedWhenSent ?? "[]")).toEqual([expect.objectContaining({ event: "login", event_id: result.event_id })]);
    const [req] = t.eventRequests();
    expect(req?.url).toBe("https://vigil.test/js/events");
    expect(req?.body).toMatchObject({
      version: 1,
      device_id: t.core.deviceId(),
      browser_token: "vbt1.token1.sig",
      library: { name: "@vigil/browser" },
      events: [{ event: "login", identity: "user-42", properties: { method: "password" }, event_id: result.event_id, timestamp: "2025-01-01T00:00:00.000Z" }],
    });
    expect(t.store.data.has(QUEUE_KEY)).toBe(false);
  });

  it("retries 503 after Retry-After, keeping the event queued meanwhile", async () => {
    const t = setup((req, n) => (n === 1 ? { status: 503, headers: { "Retry-After": "120" } } : ok(req)));
    const first = await t.core.track("transfer", { amount: 10 });
    expect(first).toMatchObject({ status: "queued" });
    expect(t.eventRequests()).toHaveLength(1);
    t.clock.advance(119_000);
    await Promise.resolve();
    expect(t.eventRequests()).toHaveLength(1);
    t.clock.advance(1_000);
    await t.core.flush();
    const sent = t.eventRequests();
    expect(sent).toHaveLength(2);
    // Same idempotency key on the resend: the server stores it once.
    expect((sent[1]?.body.events as Array<{ event_id: string }> | undefined)?.[0]?.event_id).toBe(first.event_id);
    expect(t.store.data.has(QUEUE_KEY)).toBe(false);
  });

  it.each([[408], [429], [500]])("retries %i with backoff when there is no Retry-After", async (status) => {
    const t = setup((req, n) => (n === 1 ? { status } : ok(req)));
    expect(await t.core.track("login")).toMatchObject({ status: "queued" });
    const [delay] = t.clock.pending();
    expect(delay).toBeGreaterThanOrEqual(500);
    expect(delay).toBeLessThanOrEqual(1000);
    t.clock.advance(delay ?? 0);
    await t.core.flush();
    expect(t.eventRequests()).toHaveLength(2);
  });

  it("retries network failures and never rejects", async () => {
    const t = setup((req, n) => (n === 1 ? new TypeError("Failed to fetch") : ok(req)));
    expect(await t.core.track("login")).toMatchObject({ status: "queued" });
    t.clock.advance(1000);
    await t.core.flush();
    expect(t.store.data.has(QUEUE_KEY)).toBe(false);
  });

  it("halves the batch on 413 and drops a single event that is still too large", async () => {
    const sizes: number[] = [];
    const t = setup((req) => {
      const events = req.body.events as Array<{ event: string }>;
      sizes.push(events.length);
      if (events.some((e) => e.event === "huge")) return { status: 413 };
      return events.length > 2 ? { status: 413 } : ok(req);
    });
    t.core.identify(undefined);
    // Queue four events while the network is "busy" so they go out as one batch.
    for (const e of ["a", "b", "c", "d"])
      t.store.data.set(
        QUEUE_KEY,
        JSON.stringify([...JSON.parse(t.store.data.get(QUEUE_KEY) ?? "[]"), { event: e, event_id: e, timestamp: "2025-01-01T00:00:00Z", attempts: 0 }]),
      );
    await t.core.flush();
    expect(sizes).toEqual([4, 2, 2]);
    expect(await t.core.track("huge")).toMatchObject({ status: "dropped", reason: "too_large" });
  });

  it("drops other 4xx answers with the problem code, and single items the server refused", async () => {
    const t = setup((req, n) =>
      n === 1
        ? { status: 400, body: { type: "about:blank", title: "Invalid", status: 400, code: "validation_failed" } }
        : { status: 200, body: { results: [{ status: 400, error: { code: "event_too_deep" } }] } },
    );
    expect(await t.core.track("login")).toMatchObject({ status: "dropped", reason: "validation_failed" });
    expect(await t.core.track("login")).toMatchObject({ status: "dropped", reason: "event_too_deep" });
    expect(t.store.data.has(QUEUE_KEY)).toBe(false);
  });

  it("gives up after maxAttempts (track already answered queued; the event leaves the queue)", async () => {
    const t = setup(() => ({ status: 500 }), { maxAttempts: 2 });
    expect(await t.core.track("login")).toMatchObject({ status: "queued" });
    t.clock.advance(10_000);
    await t.core.flush();
    expect(t.eventRequests()).toHaveLength(2);
    expect(t.store.data.has(QUEUE_KEY)).toBe(false);
    t.clock.advance(600_000);
    await t.core.flush();
    expect(t.eventRequests()).toHaveLength(2);
  });

  it("sends events a previous page left in storage", async () => {
    const t = setup(ok);
    t.store.data.set(QUEUE_KEY, JSON.stringify([{ event: "left-over", event_id: "wev_old", timestamp: "2024-12-31T23:00:00Z", attempts: 3 }]));
    await t.core.flush();
    expect(t.eventRequests()[0]?.body.events).toEqual([{ event: "left-over", event_id: "wev_old", timestamp: "2024-12-31T23:00:00Z" }]);
    expect(t.store.data.has(QUEUE_KEY)).toBe(false);
  });

  it("still delivers when storage throws (memory only)", async () => {
    const t = setup(ok, { queueStore: throwingStore(), deviceIdStores: [throwingStore()] });
    expect(await t.core.track("login")).toMatchObject({ status: "sent" });
  });

  it("refuses bad input as data without any request", async () => {
    const t = setup(ok);
    expect(await t.core.track("")).toMatchObject({ status: "dropped", reason: "invalid_event_name" });
    expect(await t.core.track("x".repeat(201))).toMatchObject({ status: "dropped", reason: "invalid_event_name" });
    expect(await t.core.track("ok", [] as unknown as Record<string, unknown>)).toMatchObject({ status: "dropped", reason: "invalid_properties" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(await t.core.track("ok", cyclic)).toMatchObject({ status: "dropped", reason: "properties_not_serializable" });
    expect(await t.core.track("ok", { blob: "x".repeat(40_000) })).toMatchObject({ status: "dropped", reason: "too_large" });
    expect(t.http.requests).toHaveLength(0);
  });

  it("on page hide sends with the cached token only, as keepalive, without collecting", async () => {
    let collects = 0;
    const t = setup(ok, { collect: async () => (collects++, collected) });
    t.store.data.set(QUEUE_KEY, JSON.stringify([{ event: "bye", event_id: "wev_bye", timestamp: "2025-01-01T00:00:00Z", attempts: 0 }]));
    await t.core.flush({ keepalive: true });
    expect(collects).toBe(0);
    const [req] = t.eventRequests();
    expect(req?.init.keepalive).toBe(true);
    expect(req?.body.browser_token).toBeUndefined();
  });

  it("on page hide sends at once even while a normal send is still waiting for collection, and only once per hide", async () => {
    let release: (c: typeof collected) => void = () => {};
    const t = setup(ok, { collect: () => new Promise((resolve) => (release = resolve)) });
    void t.core.track("login");
    await new Promise((r) => setTimeout(r, 0));
    expect(t.eventRequests()).toHaveLength(0);
    await t.core.flush({ keepalive: true });
    // visibilitychange:hidden and then pagehide both fire when leaving: the second must not resend.
    await t.core.flush({ keepalive: true });
    const sent = t.eventRequests();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.init.keepalive).toBe(true);
    expect(sent[0]?.body.events).toMatchObject([{ event: "login", event_id: expect.stringMatching(/^wev_/) }]);
    expect(sent[0]?.body.sent_at).toBe(new Date(t.clock.now()).toISOString());
    release(collected);
  });
});

describe("over-long fields", () => {
  it("reports an identity over 256 characters through onWarning and in each result, and sends it cut", async () => {
    const seen: unknown[] = [];
    const t = setup(ok, { onWarning: (w: unknown) => seen.push(w) });
    t.core.identify("u".repeat(300));
    const result = await t.core.track("login");
    expect(seen).toEqual([{ code: "identity_truncated", message: expect.stringContaining("300 characters") }]);
    expect(result).toMatchObject({ status: "sent", warnings: [{ code: "identity_truncated" }] });
    expect((t.eventRequests()[0]!.body.events as Array<{ identity: string }>)[0]?.identity).toHaveLength(256);
    t.core.identify("user-1");
    expect((await t.core.track("next")).warnings).toBeUndefined();
  });
});

describe("get", () => {
  it("collects, posts to /js/collect and caches the signals until the token nears expiry", async () => {
    const t = setup(ok);
    t.core.identify("user-1");
    const [a, b] = await Promise.all([t.core.get(), t.core.get()]);
    expect(a).toEqual({
      handprint_id: "hp_one",
      device_id: "ignored-by-client",
      browser_token: "vbt1.token1.sig",
      confidence: 0.93,
      expires_at: new Date(t.clock.now() + 600_000).toISOString(),
      is_new_handprint: true,
      device_signals: collected.device_signals,
      collection_ms: 12,
    });
    expect(b).toBe(a);
    const collects = () => t.http.requests.filter((r) => r.url.endsWith("/collect"));
    expect(collects()).toHaveLength(1);
    expect(collects()[0]?.body).toMatchObject({ version: 1, device_id: t.core.deviceId(), identity: "user-1", components: collected.components });
    t.clock.advance(530_000);
    expect((await t.core.get()).browser_token).toBe("vbt1.token1.sig");
    t.clock.advance(20_000); // under a minute left: refresh
    expect((await t.core.get()).browser_token).toBe("vbt1.token2.sig");
  });

  it("resolves with an error instead of rejecting when the server refuses or is unreachable", async () => {
    const clock = new ManualClock();
    const replies = [
      { status: 403, body: { title: "Forbidden", detail: "origin https://evil.example is not allowed", code: "origin_not_allowed", status: 403 } },
      new TypeError("Failed to fetch"),
      { status: 200, body: { nothing: true } },
    ];
    const http = scriptedFetch(() => replies.shift() as never);
    const core = createCore({
      endpoints: resolveEndpoints("https://vigil.test/js"),
      fetch: http.fetch,
      clock,
      randomBytes: countingRandom(),
      queueStore: mapStore(),
      deviceIdStores: [mapStore()],
      collect: async () => collected,
    });
    expect(await core.get()).toMatchObject({
      handprint_id: null,
      browser_token: null,
      device_id: core.deviceId(),
      error: { code: "origin_not_allowed", message: "origin https://evil.example is not allowed", status: 403 },
    });
    expect(await core.get()).toMatchObject({ handprint_id: null, error: { code: "network_error" } });
    expect(await core.get()).toMatchObject({ handprint_id: null, error: { code: "bad_response" } });
    const broken = createCore({
      endpoints: resolveEndpoints("https://vigil.test/js"),
      fetch: http.fetch,
      clock,
      randomBytes: countingRandom(),
      queueStore: mapStore(),
      deviceIdStores: [mapStore()],
      collect: () => Promise.reject(new Error("collector broke")),
    });
    expect(await broken.get()).toMatchObject({ error: { code: "collection_failed", message: "collector broke" } });
  });
});
