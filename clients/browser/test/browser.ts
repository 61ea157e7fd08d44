import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import type { Component } from "../src/sources/types.js";

let browser: Browser | null = null;
/** The harness page that plain reads share (see readSource), opened on first use; gone with the connection. */
let shared: Promise<Page> | null = null;

export async function connectBrowser(): Promise<Browser> {
  browser ??= await chromium.connect(inject("wsEndpoint"));
  return browser;
}

export async function closeBrowser(): Promise<void> {
  shared = null;
  await browser?.close();
  browser = null;
}

export const staticOrigin = () => inject("staticOrigin");

/** A context's options, and a script to run in every document before the harness. */
export type HarnessOptions = BrowserContextOptions & { initScript?: string };

export interface Opened {
  context: BrowserContext;
  page: Page;
}

/** A fresh context (its own storage, like an incognito window) with the harness page loaded. */
export async function openHarness(options: HarnessOptions = {}): Promise<Opened> {
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

/**
 * Runs the source in a harness document of its own: a fresh load of the harness, with `initScript` (if any) run
 * before it. A read that asks for no context options (screen, locale, time zone, …) loads that document in a page
 * every such read of the file shares: a new context costs a new renderer process, 0.3-0.6 s of CPU each, most of
 * what a read costs (a reload in the same page costs a tenth of it). A fresh document is what a source sees of a
 * page; storage the context keeps between reads is not read by any source. `readSourceInFreshContext` is for the
 * reads that are about contexts (the same reading in two of them).
 */
export async function readSource(name: string, options: HarnessOptions = {}): Promise<Component> {
  const { initScript, ...contextOptions } = options;
  if (Object.keys(contextOptions).length > 0) return readSourceInFreshContext(name, options);
  shared ??= connectBrowser().then(async (b) => (await b.newContext()).newPage());
  const page = await shared;
  const script = initScript ? await page.addInitScript(initScript) : undefined;
  try {
    await page.goto(`${staticOrigin()}/`);
    return await runSource(page, name);
  } finally {
    await script?.dispose();
  }
}

/** Opens a harness page in a context of its own, runs the source, closes the context. */
export async function readSourceInFreshContext(name: string, options: HarnessOptions = {}): Promise<Component> {
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
