import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

import { vigilOn } from '@vigil/test-kit';

export { CHROMIUM_ARGS, CHROMIUM_PATH, cores, emulatedDevices, launchChromium } from '@vigil/test-kit';

/**
 * A customer's static site on its own origin. `origin` and `otherOrigin` are the same server under two host names
 * (127.0.0.1 and localhost), i.e. two different origins, so one can be allowed and the other not.
 *
 * - `/page.html?vigil=<base>`: only the one-line script tag.
 * - `/shop.html?vigil=<base>`: the one-line tag plus setup, identify, track and get, as a new user would write it;
 *   the outcome lands in `window.vigilResult`.
 */
export interface StaticSite {
  origin: string;
  otherOrigin: string;
  close(): Promise<void>;
}

export async function startStaticSite(): Promise<StaticSite> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const vigil = url.searchParams.get('vigil') ?? '';
    const tag = `<script src="${vigil}/js"></script>`;
    if (url.pathname === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><meta charset="utf-8">${tag}</head><body>shop</body></html>`);
    } else if (url.pathname === '/shop.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
<html><head><meta charset="utf-8"><title>Shop</title>${tag}</head>
<body><h1>Shop</h1>
<script>
  Vigil.setup();
  Vigil.identify("user-42");
  window.vigilResult = Promise.all([Vigil.track("login", { method: "password" }), Vigil.get()])
    .then(([tracked, signals]) => ({ tracked, signals }));
</script>
</body></html>`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    otherOrigin: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the browser library's get() resolves to (the subset the tests read). */
export interface PageSignals {
  handprint_id: string | null;
  device_id: string | null;
  browser_token: string | null;
  confidence: number | null;
  is_new_handprint: boolean | null;
  error?: { code: string; message: string; status?: number };
}

type Tracked = { status: string; event_id: string; reason?: string };

export interface ShopPage {
  context: BrowserContext;
  page: Page;
  setup(options?: Record<string, unknown>): Promise<void>;
  get(): Promise<PageSignals>;
  track(event: string, properties?: Record<string, unknown>): Promise<Tracked>;
}

export type VisitOptions = BrowserContextOptions & { initScript?: string; siteOrigin?: string; context?: BrowserContext };

/** A page on the customer's site (fresh storage unless a context is passed) with the one-line tag loaded. */
export async function openShop(browser: Browser, site: StaticSite, vigilBase: string, options: VisitOptions = {}): Promise<ShopPage> {
  const { initScript, siteOrigin, context: existing, ...contextOptions } = options;
  const context = existing ?? (await browser.newContext(contextOptions));
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${siteOrigin ?? site.origin}/page.html?vigil=${encodeURIComponent(vigilBase)}`);
  const shop: ShopPage = { context, page, ...vigilOn<PageSignals, Tracked>(page) };
  // No url given: the script defaults to the /js address it was loaded from.
  await shop.setup();
  return shop;
}

/** Signals of one visit in a fresh context (like an incognito window) with these emulation options. */
export async function visit(browser: Browser, site: StaticSite, vigilBase: string, options: VisitOptions = {}): Promise<PageSignals> {
  const shop = await openShop(browser, site, vigilBase, options);
  try {
    return await shop.get();
  } finally {
    await shop.context.close();
  }
}
