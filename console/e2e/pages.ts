import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { hasText } from './eventually';
import { CONSOLE_DIR } from './processes';
import type { Account, Stack } from './stack';

export const SHOTS = join(CONSOLE_DIR, 'test-results');

/**
 * A fresh browser context on the console. Every address it asks for outside the console is pushed to `foreign`
 * (a test checks it stays empty: no CDN, font or direct API call).
 */
export async function openPage(browser: Browser, stack: Stack, foreign: string[], options: BrowserContextOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options, baseURL: stack.console.url });
  if (options.javaScriptEnabled !== false) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.console.url });
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${stack.console.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  return { context, page: await context.newPage() };
}

export async function signIn(page: Page, account: Account, path = '/') {
  await page.goto(path);
  await page.waitForURL(/\/login/);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await hasText(page.getByTestId('signed-in-user'), account.username);
}

/** Signs in through the API and hands the context the session cookie, as the login form would have. */
export async function signInByCookie(context: BrowserContext, stack: Stack, account: Account) {
  const response = await fetch(`${stack.vigil.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const { token } = (await response.json()) as { token: string };
  await context.addCookies([{ name: 'vigil_session', value: token, url: stack.console.url, httpOnly: true, sameSite: 'Lax' }]);
}

/**
 * Signs in with a session cookie from the API (signInByCookie) and opens `path` as that account: for the tests whose
 * subject is not the sign-in form (its own tests drive it), one page load and one form post fewer each.
 */
export async function openSignedIn(page: Page, stack: Stack, account: Account, path = '/') {
  await signInByCookie(page.context(), stack, account);
  await visitAs(page, account, path);
}

/** Opens `path` and waits for the header (rendered by the server, so also without JavaScript) to name `account`. */
async function visitAs(page: Page, account: Account, path: string) {
  await page.goto(path);
  await hasText(page.getByTestId('signed-in-user'), account.username);
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
}

/**
 * Signed-in pages kept open across a file's tests, one per account and context options: a test opens its address in
 * the page of its account instead of a fresh context. Each fresh context costs Chromium new renderer processes, about
 * 0.4 CPU-s each to start whatever the page, and most tests' subject is a page, not a session. A test about the
 * session itself (sign-in, sign-out, expiry), one needing a second tab or an options set of its own, opens its own
 * context (openPage). A shared page is never closed by a test; the browser's close ends them all.
 */
export function sharedSessions(browser: Browser, stack: Stack, foreign: string[]) {
  const opened = new Map<string, Promise<OpenPage>>();
  return async (account: Account, path = '/', options: BrowserContextOptions = {}): Promise<OpenPage> => {
    const key = `${account.username} ${JSON.stringify(options)}`;
    let session = opened.get(key);
    if (!session) {
      session = openPage(browser, stack, foreign, options).then(async (open) => {
        await signInByCookie(open.context, stack, account);
        return open;
      });
      opened.set(key, session);
      // A failed sign-in fails its own test; the next one tries again.
      session.catch(() => opened.delete(key));
    }
    const open = await session;
    await visitAs(open.page, account, path);
    return open;
  };
}

export async function shot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The texts of the devices table's column with this heading (the columns depend on what the server offers). */
export async function columnTexts(page: Page, heading: string): Promise<string[]> {
  const headings = (await page.locator('[data-testid="devices-table"] thead th').allTextContents()).map((t) => t.trim());
  const column = headings.findIndex((h) => h.startsWith(heading)) + 1;
  if (column === 0) throw new Error(`no "${heading}" column in ${JSON.stringify(headings)}`);
  return page.locator(`[data-testid="devices-table"] tbody tr td:nth-child(${column})`).allTextContents();
}

/**
 * A device-side call with any device id, `.` and `..` included: fetch (WHATWG URL) would resolve those segments
 * even percent-encoded, node:http sends the path as written.
 */
export function deviceCall(stack: Stack, method: 'GET' | 'POST', deviceId: string, tail: string, body?: unknown): Promise<{ status: number; json: any }> {
  const segment = encodeURIComponent(deviceId).replace(/\./g, '%2E');
  const url = new URL(stack.vigil.url);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: `/devices/${segment}/${tail}`,
        headers: { authorization: `Bearer ${stack.keys.client}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', fail);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
