import type { BrowserContext, Page } from "playwright-core";
import type { Signals, TrackResult } from "../src/index.js";
import { vigilOn } from "@vigil/test-kit";
import { connectBrowser, type HarnessOptions, staticOrigin } from "./browser.js";

export interface VigilPage {
  context: BrowserContext;
  page: Page;
  setup(options?: Record<string, unknown>): Promise<void>;
  get(): Promise<Signals>;
  track(event: string, properties?: Record<string, unknown>): Promise<TrackResult>;
}

/** A context (fresh storage unless one is passed) on a customer page that loads the script with one tag. */
export async function openShop(vigilBase: string, options: HarnessOptions & { context?: BrowserContext } = {}): Promise<VigilPage> {
  const { initScript, context: existing, ...contextOptions } = options;
  const context = existing ?? (await (await connectBrowser()).newContext(contextOptions));
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${staticOrigin()}/page.html?vigil=${encodeURIComponent(vigilBase)}`);
  const vigil = vigilOn<Signals, TrackResult>(page);
  // No url given: the script defaults to the /js address it was loaded from.
  await vigil.setup();
  return { context, page, ...vigil };
}

/** Handprint of one visit in a fresh context with these emulation options. */
export async function handprintOf(vigilBase: string, options: HarnessOptions = {}): Promise<Signals> {
  const shop = await openShop(vigilBase, options);
  try {
    return await shop.get();
  } finally {
    await shop.context.close();
  }
}
