import { and, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '@vigil/drizzle/schema';
import { surfaceDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';
import {
  emulatedDevices,
  launchChromium,
  openShop,
  startStaticSite,
  visit,
  type PageSignals,
  type StaticSite,
  type VisitOptions,
} from '../../test-support/chromium.js';

/** A desktop-like machine: the screen is fixed, the window (viewport) may change. */
const DESKTOP: VisitOptions = {
  screen: { width: 1920, height: 1080 },
  viewport: { width: 1280, height: 720 },
  deviceScaleFactor: 1,
  timezoneId: 'Europe/Berlin',
  locale: 'de-DE',
};

let browser: Browser;
let site: StaticSite;

beforeAll(async () => {
  browser = await launchChromium();
  site = await startStaticSite();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe.each(surfaceDrivers())('the browser library in real Chromium against the real server on %s', (driver) => {
  let server: TestVigil;
  let baseline: PageSignals;
  const codes = (body: { warnings: { code: string }[] }) => body.warnings.map((w) => w.code);

  beforeAll(async () => {
    // Only the site's 127.0.0.1 origin is allowed; the same site on localhost is a different, refused origin.
    server = await startTestVigil(driver, { VIGIL_JS_ALLOWED_ORIGINS: site.origin, VIGIL_JS_COLLECT_RPS: '0', VIGIL_JS_TOKEN_MAX_USES: '2' });
    baseline = await visit(browser, site, server.url, DESKTOP);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('works as a new user tries it: a static page with the one-line tag, setup, identify, track and get', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${site.origin}/shop.html?vigil=${encodeURIComponent(server.url)}`);
    const { tracked, signals } = await page.evaluate(
      () => (globalThis as unknown as { vigilResult: Promise<{ tracked: { status: string }; signals: PageSignals }> }).vigilResult,
    );
    await context.close();
    expect(signals.error).toBeUndefined();
    expect(signals).toMatchObject({
      handprint_id: baseline.handprint_id,
      device_id: expect.stringMatching(/^web_/),
      browser_token: expect.stringMatching(/^vbt1\./),
    });
    expect(tracked.status).toBe('sent');

    // The page's own event went through normal ingestion with the browser's handprint and identity.
    const [stored] = await server.database.db
      .select()
      .from(events)
      .where(and(eq(events.name, 'login'), eq(events.deviceId, signals.device_id!)));
    expect(stored).toMatchObject({ identity: 'user-42', handprintId: signals.handprint_id, properties: { method: 'password' } });

    // The backend forwards the token and sees the same handprint and device.
    const res = await server.post('/events', { event: 'login', identity: 'user-42', properties: { browser_token: signals.browser_token } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ handprint_id: signals.handprint_id, device_id: signals.device_id, warnings: [] });
  });

  it('stores an event once when both the page-hide keepalive send and the normal send deliver it', async () => {
    const shop = await openShop(browser, site, server.url, DESKTOP);
    const cdp = await shop.context.newCDPSession(shop.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1500, downloadThroughput: -1, uploadThroughput: -1 });
    let sends = 0;
    shop.page.on('requestfinished', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/js/events')) sends++;
    });
    // A pagehide the page survives (back-forward cache): the keepalive send and the normal one both go out.
    const tracked = await shop.page.evaluate(() => {
      const vigil = (globalThis as unknown as { Vigil: { track(e: string): Promise<{ status: string; event_id: string }> } }).Vigil;
      const result = vigil.track('hide-twice');
      (globalThis as unknown as { dispatchEvent(event: Event): void }).dispatchEvent(new Event('pagehide'));
      return result;
    });
    const signals = await shop.get();
    await expect.poll(() => sends, { timeout: 20_000 }).toBe(2);
    await shop.context.close();
    expect(tracked.status).toBe('sent');
    const stored = await server.database.db.select().from(events).where(eq(events.idempotencyKey, tracked.event_id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'hide-twice', deviceId: signals.device_id });
  });

  it('stores the events of a device whose clock is an hour fast at the right time (sent_at corrects the skew)', async () => {
    const fast = 'const realNow = Date.now; Date.now = () => realNow() + 3600000;';
    const shop = await openShop(browser, site, server.url, { ...DESKTOP, initScript: fast });
    const before = Date.now();
    const tracked = await shop.track('clock-skew-login');
    const after = Date.now();
    await shop.context.close();
    expect(tracked.status).toBe('sent');
    const [stored] = await server.database.db.select().from(events).where(eq(events.name, 'clock-skew-login'));
    // Stamped an hour ahead by the page, stored within the real time the page was tracking.
    expect(stored?.occurredAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(stored?.occurredAt.getTime()).toBeLessThanOrEqual(after + 1_000);
  });

  it('keeps the handprint and gives a new device_id when storage is cleared', async () => {
    const shop = await openShop(browser, site, server.url, DESKTOP);
    const before = await shop.get();
    await shop.page.evaluate(() => (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear());
    await shop.context.clearCookies();
    await shop.page.reload();
    await shop.setup();
    const after = await shop.get();
    await shop.context.close();
    expect(before.handprint_id).toBe(baseline.handprint_id);
    expect(after.handprint_id).toBe(baseline.handprint_id);
    expect(after.device_id).toMatch(/^web_/);
    expect(after.device_id).not.toBe(before.device_id);
    expect(after.is_new_handprint).toBe(false);
  });

  it('keeps the handprint in a fresh (incognito-like) context', async () => {
    const fresh = await visit(browser, site, server.url, DESKTOP);
    expect(fresh.handprint_id).toBe(baseline.handprint_id);
    expect(fresh.device_id).not.toBe(baseline.device_id);
  });

  it("keeps the handprint when the browser's major version is bumped", async () => {
    const context = await browser.newContext();
    const current = await (await context.newPage()).evaluate(() => (globalThis as unknown as { navigator: { userAgent: string } }).navigator.userAgent);
    await context.close();
    const bumped = current.replace(/Chrome\/(\d+)/, (_m: string, v: string) => `Chrome/${Number(v) + 1}`);
    expect(bumped).not.toBe(current);
    expect((await visit(browser, site, server.url, { ...DESKTOP, userAgent: bumped })).handprint_id).toBe(baseline.handprint_id);
  });

  it('gives emulated different devices different handprints, each stable on its own revisit', async () => {
    const variants: Record<string, VisitOptions> = emulatedDevices(DESKTOP);
    const ids: Record<string, string | null> = { baseline: baseline.handprint_id };
    for (const [name, options] of Object.entries(variants)) ids[name] = (await visit(browser, site, server.url, options)).handprint_id;
    for (const id of Object.values(ids)) expect(id).toMatch(/^hp_/);
    expect(new Set(Object.values(ids)).size).toBe(Object.keys(ids).length);
    for (const name of ['cores', 'timezone', 'phone']) {
      expect((await visit(browser, site, server.url, variants[name]!)).handprint_id).toBe(ids[name]);
    }
  });

  it("reports a forged and a replayed browser token in the backend's warnings", async () => {
    const signals = await visit(browser, site, server.url, DESKTOP);
    const token = signals.browser_token!;
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const refused = await server.post('/events', { event: 'login', properties: { browser_token: forged } });
    expect(codes(refused.body)).toEqual(['browser_token_bad_signature']);
    expect(refused.body.handprint_id).not.toBe(signals.handprint_id);
    const uses = [];
    for (let i = 0; i < 3; i++) uses.push(codes((await server.post('/events', { event: 'login', properties: { browser_token: token } })).body));
    expect(uses).toEqual([[], [], ['browser_token_replayed']]);
  });

  it('is refused by CORS on a page from a non-allowed origin', async () => {
    const signals = await visit(browser, site, server.url, { ...DESKTOP, siteOrigin: site.otherOrigin });
    expect(signals.handprint_id).toBeNull();
    expect(signals.browser_token).toBeNull();
    expect(signals.error).toBeDefined();
  });

  it('refuses a write key put in a page (403, readable by the page)', async () => {
    const shop = await openShop(browser, site, server.url, DESKTOP);
    await shop.setup({ url: `${server.url}/js`, clientKey: server.writeKey });
    const signals = await shop.get();
    await shop.context.close();
    expect(signals.handprint_id).toBeNull();
    expect(signals.error).toMatchObject({ code: 'write_key_not_allowed', status: 403 });
  });
});
