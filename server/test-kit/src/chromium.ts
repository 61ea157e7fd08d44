import { chromium, type Browser, type BrowserContextOptions, type BrowserServer, type Page } from 'playwright-core';
import { whileNetworkSteady } from './network-lock.js';

/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, no sandbox (tests run as root in CI), and nothing that talks to the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A Chromium for this process. */
export function launchChromium(): Promise<Browser> {
  return whileNetworkSteady(() => chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }));
}

/** A Chromium that test files in other processes connect to (`chromium.connect(wsEndpoint())`). */
export function launchChromiumServer(): Promise<BrowserServer> {
  return whileNetworkSteady(() => chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }));
}

/** The calls tests make on the browser library's one-tag global (`window.Vigil`), typed by the caller. */
export interface VigilCalls<Signals, Tracked> {
  setup(options?: Record<string, unknown>): Promise<void>;
  get(): Promise<Signals>;
  track(event: string, properties?: Record<string, unknown>): Promise<Tracked>;
}

type VigilGlobal = {
  setup(options?: Record<string, unknown>): unknown;
  get(): Promise<unknown>;
  track(event: string, properties?: Record<string, unknown>): Promise<unknown>;
};

/** `window.Vigil` of a page that loaded the script, called through page.evaluate (the functions run in the page). */
export function vigilOn<Signals, Tracked>(page: Page): VigilCalls<Signals, Tracked> {
  return {
    setup: (options) => page.evaluate((o) => void (globalThis as unknown as { Vigil: VigilGlobal }).Vigil.setup(o), options),
    get: () => page.evaluate(() => (globalThis as unknown as { Vigil: VigilGlobal }).Vigil.get()) as Promise<Signals>,
    track: (event, properties) =>
      page.evaluate(([e, p]) => (globalThis as unknown as { Vigil: VigilGlobal }).Vigil.track(e, p), [event, properties] as const) as Promise<Tracked>,
  };
}

/** An init script that emulates a different core count (Playwright has no option for it). */
export const cores = (n: number) => `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${n} });`;

/**
 * Machines that differ from `desktop` in one way each (screen, pixel ratio, user agent, time zone, locale, cores), and
 * a phone: each should get a handprint of its own.
 */
export function emulatedDevices(desktop: BrowserContextOptions): Record<string, BrowserContextOptions & { initScript?: string }> {
  return {
    screen: { ...desktop, screen: { width: 2560, height: 1440 }, viewport: { width: 1600, height: 900 } },
    pixel_ratio: { ...desktop, deviceScaleFactor: 2 },
    user_agent: {
      ...desktop,
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    },
    timezone: { ...desktop, timezoneId: 'America/New_York' },
    locale: { ...desktop, locale: 'fr-FR' },
    cores: { ...desktop, initScript: cores(12) },
    phone: {
      screen: { width: 390, height: 844 },
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      timezoneId: 'Europe/Berlin',
      locale: 'de-DE',
    },
  };
}
