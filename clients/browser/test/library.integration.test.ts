import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, staticOrigin } from "./browser.js";
import { startReferenceServer, type ReferenceServer } from "./reference-server.js";
import { openShop } from "./vigil-page.js";
import { until } from "./until.js";

let server: ReferenceServer;

async function backendEvent(base: string, properties: Record<string, unknown>) {
  const res = await fetch(`${base}/events`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ event: "login", identity: "user-1", properties }),
  });
  return (await res.json()) as { handprint_id: string | null; device_id: string | null; warnings: Array<{ code: string }> };
}

describe("the one-tag script on a customer page (real Chromium, real HTTP, cross-origin)", () => {
  beforeAll(async () => {
    server = await startReferenceServer({ allowedOrigins: [staticOrigin()], maxUses: 2 });
  });
  afterAll(async () => {
    await closeBrowser();
    await server.close();
  });

  it("serves the script at GET /js with short caching and a versioned immutable copy", async () => {
    const res = await fetch(`${server.base}/js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const canonical = /<([^>]+)>/.exec(res.headers.get("link") ?? "")?.[1] ?? "";
    const versioned = await fetch(`${server.base}${canonical}`);
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await versioned.text()).toBe(await res.text());
  });

  it("setup, identify, track and get; the backend's event with the browser_token sees the same handprint", async () => {
    const shop = await openShop(server.base);
    await shop.page.evaluate(() => (window as unknown as { Vigil: { identify(i: string): void } }).Vigil.identify("user-1"));
    const tracked = await shop.track("login", { plan: "pro" });
    const signals = await shop.get();
    await shop.context.close();

    expect(tracked).toEqual({ status: "sent", event_id: expect.stringMatching(/^wev_/) });
    expect(signals).toMatchObject({
      handprint_id: expect.stringMatching(/^hp_/),
      device_id: expect.stringMatching(/^web_/),
      browser_token: expect.stringMatching(/^vbt1\./),
      confidence: expect.any(Number),
      expires_at: expect.any(String),
      device_signals: { version: 1, platform: "web", automation: { webdriver: true } },
    });
    expect(server.ingested.at(-1)).toMatchObject({
      event: "login",
      identity: "user-1",
      properties: { plan: "pro", device_id: signals.device_id, event_id: tracked.event_id, browser_token: expect.any(String), ip_address: "127.0.0.1" },
    });

    // The operator's backend forwards the token in its own POST /events.
    const linked = await backendEvent(server.base, { browser_token: signals.browser_token, device_id: signals.device_id });
    expect(linked).toEqual({ handprint_id: signals.handprint_id, device_id: signals.device_id, event_id: expect.any(String), warnings: [] });
    await backendEvent(server.base, { browser_token: signals.browser_token });
    const replayed = await backendEvent(server.base, { browser_token: signals.browser_token });
    expect(replayed).toMatchObject({ handprint_id: null, warnings: [{ code: "browser_token_replayed" }] });
    const forged = await backendEvent(server.base, { browser_token: `${signals.browser_token?.slice(0, -4)}AAAA` });
    expect(forged).toMatchObject({ handprint_id: null, warnings: [{ code: "browser_token_bad_signature" }] });
  });

  it("queues events while the server answers 503 and delivers them after Retry-After", async () => {
    const shop = await openShop(server.base);
    await shop.get();
    server.failNext(503, 1, 1);
    const before = server.ingested.length;
    const tracked = await shop.track("transfer", { amount: 125 });
    expect(tracked).toMatchObject({ status: "queued" });
    const queued = await shop.page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith("vigil_queue:"))
        .map((k) => localStorage.getItem(k)),
    );
    expect(JSON.parse(queued[0] ?? "[]")).toEqual([expect.objectContaining({ event: "transfer", event_id: tracked.event_id })]);
    const delivered = await until(() => server.ingested.slice(before).find((e) => e.properties.event_id === tracked.event_id), "the retried event");
    expect(delivered.properties).toMatchObject({ amount: 125 });
    await shop.context.close();
  });

  it("sends events an earlier page left queued when the next page loads", async () => {
    const shop = await openShop(server.base);
    await shop.get();
    server.failNext(500, 5);
    const tracked = await shop.track("checkout");
    expect(tracked).toMatchObject({ status: "queued" });
    server.failNext(500, 0);
    await shop.page.goto(`${staticOrigin()}/page.html?vigil=${encodeURIComponent(server.base)}`);
    await shop.page.evaluate(() => void (window as unknown as { Vigil: { setup(): void } }).Vigil.setup());
    await until(() => server.ingested.find((e) => e.properties.event_id === tracked.event_id), "the left-over event");
    await shop.context.close();
  });

  it("never throws into the page when the origin is not allowed", async () => {
    const closed = await startReferenceServer({ allowedOrigins: ["https://elsewhere.example"] });
    try {
      const shop = await openShop(closed.base);
      const errors: string[] = [];
      shop.page.on("pageerror", (e) => errors.push(e.message));
      const signals = await shop.get();
      const tracked = await shop.track("login");
      await shop.context.close();
      // CORS hides the refusal from the page: fetch fails, and the library reports it as data.
      expect(signals).toMatchObject({ handprint_id: null, browser_token: null, error: { code: "network_error" } });
      expect(tracked).toMatchObject({ status: "queued" });
      expect(errors).toEqual([]);
      expect(closed.collected).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it("prints how long signal collection takes in Chromium (measured, not asserted)", async () => {
    const shop = await openShop(server.base);
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      runs.push(
        await shop.page.evaluate(async () => {
          const v = (window as unknown as { Vigil: { createVigil(o: { url: string }): { get(): Promise<{ collection_ms: number | null }> } } }).Vigil;
          const client = v.createVigil({ url: `${document.querySelector("script")?.src ?? ""}` });
          return (await client.get()).collection_ms ?? -1;
        }),
      );
    }
    await shop.context.close();
    console.log(`signal collection in Chromium: first ${runs[0]} ms, then ${runs.slice(1).join(" ms, ")} ms (same page)`);
    expect(runs.every((ms) => ms >= 0)).toBe(true);
  });
});
