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

/** A fresh context on a page of the static site whose requests from now on take `latencyMs` longer (CDP throttling). */
export async function openSlowPage(path: string, latencyMs: number): Promise<Opened> {
  const context = await (await connectBrowser()).newContext();
  const page = await context.newPage();
  await page.goto(`${staticOrigin()}${path}`);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: latencyMs, downloadThroughput: -1, uploadThroughput: -1 });
  return { context, page };
}
