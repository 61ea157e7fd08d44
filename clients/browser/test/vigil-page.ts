import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import type { Signals, TrackResult } from "../src/index.js";
import { connectBrowser, staticOrigin } from "./browser.js";

type VigilGlobal = {
  setup(o?: Record<string, unknown>): unknown;
  identify(i: string): void;
  track(e: string, p?: Record<string, unknown>): Promise<TrackResult>;
  get(): Promise<Signals>;
};

export interface VigilPage {
  context: BrowserContext;
  page: Page;
  get(): Promise<Signals>;
  track(event: string, properties?: Record<string, unknown>): Promise<TrackResult>;
}

/** A context (fresh storage unless one is passed) on a customer page that loads the script with one tag. */
export async function openShop(vigilBase: string, options: BrowserContextOptions & { initScript?: string; context?: BrowserContext } = {}): Promise<VigilPage> {
  const { initScript, context: existing, ...contextOptions } = options;
  const context = existing ?? (await (await connectBrowser()).newContext(contextOptions));
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${staticOrigin()}/page.html?vigil=${encodeURIComponent(vigilBase)}`);
  // No url given: the script defaults to the /js address it was loaded from.
  await page.evaluate(() => void (window as unknown as { Vigil: VigilGlobal }).Vigil.setup());
  return {
    context,
    page,
    get: () => page.evaluate(() => (window as unknown as { Vigil: VigilGlobal }).Vigil.get()),
    track: (event, properties) =>
      page.evaluate(([e, p]) => (window as unknown as { Vigil: VigilGlobal }).Vigil.track(e as string, p as Record<string, unknown> | undefined), [
        event,
        properties,
      ] as const),
  };
}

/** Handprint of one visit in a fresh context with these emulation options. */
export async function handprintOf(vigilBase: string, options: BrowserContextOptions & { initScript?: string } = {}): Promise<Signals> {
  const shop = await openShop(vigilBase, options);
  try {
    return await shop.get();
  } finally {
    await shop.context.close();
  }
}

export const cores = (n: number) => `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${n} });`;
