import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import type { Component } from "../src/sources/types.js";

let browser: Browser | null = null;

export async function connectBrowser(): Promise<Browser> {
  browser ??= await chromium.connect(inject("wsEndpoint"));
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = null;
}

export const staticOrigin = () => inject("staticOrigin");

export interface Opened {
  context: BrowserContext;
  page: Page;
}

/** A fresh context (its own storage, like an incognito window) with the harness page loaded. */
export async function openHarness(options: BrowserContextOptions & { initScript?: string } = {}): Promise<Opened> {
  const { initScript, ...contextOptions } = options;
  const context = await (await connectBrowser()).newContext(contextOptions);
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${staticOrigin()}/`);
  return { context, page };
}

/** Runs one source in the page through the library's failure-capturing runner. */
export async function runSource(page: Page, name: string): Promise<Component> {
  return page.evaluate((n) => (window as unknown as { VigilHarness: { runSource(n: string): Promise<Component> } }).VigilHarness.runSource(n), name);
}

/** Opens a harness page, runs the source, closes the context. */
export async function readSource(name: string, options: BrowserContextOptions & { initScript?: string } = {}): Promise<Component> {
  const { context, page } = await openHarness(options);
  try {
    return await runSource(page, name);
  } finally {
    await context.close();
  }
}

export function valueOf<T>(component: Component): T {
  if (!("value" in component)) throw new Error(`source failed: ${component.error}`);
  return component.value as T;
}

export interface SlowPage extends Opened {
  /**
   * Lifts the throttling, then closes the context. Closed while throttled requests were still held (the navigation
   * away, a keepalive request outliving its page), the context now and then never finished closing on a loaded
   * machine; with the latency lifted first, those requests go out and the close has nothing to wait for.
   */
  close(): Promise<void>;
}

/** A fresh context on a page of the static site whose requests from now on take `latencyMs` longer (CDP throttling). */
export async function openSlowPage(path: string, latencyMs: number): Promise<SlowPage> {
  const context = await (await connectBrowser()).newContext();
  const page = await context.newPage();
  await page.goto(`${staticOrigin()}${path}`);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const throttle = (latency: number) => cdp.send("Network.emulateNetworkConditions", { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
  await throttle(latencyMs);
  return {
    context,
    page,
    close: async () => {
      // The session may already be gone with its page; the close below is what must finish.
      await throttle(0).catch(() => undefined);
      await context.close();
    },
  };
}
