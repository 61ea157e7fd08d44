import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackResult } from "../src/index.js";
import { closeBrowser, openSlowPage, staticOrigin } from "./browser.js";
import { startReferenceServer, type ReferenceServer } from "./reference-server.js";
import { until } from "./until.js";

let server: ReferenceServer;

/** The loader snippet exactly as the README documents it (its first script block under "Before the script loads"). */
function readmeSnippet(): string {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("### Before the script loads"));
  const block = /```html\n<script>\n([\s\S]*?)<\/script>/.exec(section)?.[1];
  if (!block) throw new Error("README has no loader snippet");
  return block.split("\n")[0] ?? "";
}

describe("calls the page makes that the library cannot take as they are (real Chromium, 1.5 s latency)", () => {
  beforeAll(async () => {
    server = await startReferenceServer({ allowedOrigins: [staticOrigin()] });
  });
  afterAll(async () => {
    await closeBrowser();
    await server.close();
  });

  it("queues track and identify made before setup and before the script, and replays them when it loads", async () => {
    const { page, close } = await openSlowPage("/blank.html", 1500);
    try {
      const result = await page.evaluate(
        ([snippet, src]) => {
          new Function(snippet as string)();
          const stub = (window as unknown as { Vigil: Record<string, (...a: unknown[]) => Promise<unknown>> }).Vigil;
          // Before setup, as a page whose tracking code runs first would.
          stub.identify!("user-9");
          const tracked = stub.track!("signup", { plan: "pro" });
          void stub.setup!();
          const script = document.createElement("script");
          script.async = true;
          script.src = src as string;
          document.head.appendChild(script);
          return tracked;
        },
        [readmeSnippet(), `${server.base}/js`] as const,
      );
      expect(result as TrackResult).toMatchObject({ status: "sent", event_id: expect.stringMatching(/^wev_/) });
      const delivered = await until(() => server.ingested.find((e) => e.event === "signup"), "the queued event");
      expect(delivered).toMatchObject({ identity: "user-9", properties: { plan: "pro" } });
    } finally {
      await close();
    }
  });

  it("reports an identity over 256 characters on the console and in the result, and delivers the event with it cut", async () => {
    const { page, close } = await openSlowPage(`/page.html?vigil=${encodeURIComponent(server.base)}`, 1500);
    try {
      const warnings: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "warning") warnings.push(message.text());
      });
      const result = await page.evaluate((identity) => {
        const vigil = (window as unknown as { Vigil: Record<string, (...a: unknown[]) => Promise<unknown>> }).Vigil;
        vigil.setup!();
        vigil.identify!(identity);
        return vigil.track!("long-identity");
      }, "x".repeat(300));
      expect(result as TrackResult).toMatchObject({ status: "sent", warnings: [{ code: "identity_truncated" }] });
      expect(warnings).toEqual([expect.stringContaining("identity has 300 characters")]);
      const delivered = await until(() => server.ingested.find((e) => e.event === "long-identity"), "the event");
      expect(delivered.identity).toBe("x".repeat(256));
    } finally {
      await close();
    }
  });
});
