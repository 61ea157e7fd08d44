import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, openSlowPage, staticOrigin } from "./browser.js";
import { startReferenceServer, type ReferenceServer } from "./reference-server.js";
import { until } from "./until.js";

let server: ReferenceServer;

describe("an event tracked right before the page navigates away (real Chromium, 1.5 s network latency)", () => {
  beforeAll(async () => {
    server = await startReferenceServer({ allowedOrigins: [staticOrigin()] });
  });
  afterAll(async () => {
    await closeBrowser();
    await server.close();
  });

  it("the login form: setup(); track('login'); location.href = … still delivers the event", async () => {
    const { context, page } = await openSlowPage(`/page.html?vigil=${encodeURIComponent(server.base)}`, 1500);
    try {
      const before = server.ingested.length;
      // The page the user lands on does not load Vigil, so only a request sent while leaving can deliver the event.
      // The page runs the sequence in a task of its own, one the evaluation has returned from: an evaluation that
      // navigates races the destruction of its own context, and now and then never answers.
      await page.evaluate((next) => {
        const vigil = (window as unknown as { Vigil: { setup(): void; identify(i: string): void; track(e: string): Promise<unknown> } }).Vigil;
        setTimeout(() => {
          vigil.setup();
          vigil.identify("user-7");
          void vigil.track("login");
          location.href = next;
        }, 0);
      }, `${staticOrigin()}/blank.html`);
      const delivered = await until(() => server.ingested.slice(before).find((e) => e.event === "login" && e.identity === "user-7"), "the login event");
      expect(delivered.properties).toMatchObject({ event_id: expect.stringMatching(/^wev_/), device_id: expect.stringMatching(/^web_/) });
      // Sent without waiting for collection, it carries no browser_token: the server links it by device_id.
      expect(delivered.properties.browser_token).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
