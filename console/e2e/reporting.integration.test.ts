/**
 * The console's reporting features, against the real server: prefix search, risk column and sorts, bulk
 * deactivate and transfer (with and without JavaScript), CSV export through the console, the Reports page
 * (eventStats, deviceStats) and the Live page (eventAdded over graphql-ws, relayed as Server-Sent Events).
 * Run alone:
 *   pnpm --filter @vigil/console build && pnpm --filter @vigil/console exec vitest run e2e/reporting.integration.test.ts
 */
import { mkdir } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atUrl, containsText, eventually, hasCount, hasText, isVisible } from './eventually';
import { columnTexts, SHOTS, sharedSessions, shot } from './pages';
import { BRANCHES, ROLES } from './seed';
import { graphqlAs, STACK_START_TIMEOUT_MS, type Started, startStackAndBrowser, type Stack } from './stack';

const DEVICES = Number(process.env.VIGIL_CONSOLE_E2E_DEVICES ?? 1000);
// The Live page's threshold for this stack's console: low, so one emulator event is surely "risky".
process.env.VIGIL_CONSOLE_RISKY_SCORE = '0.05';

let starting: Started | undefined;
let stack: Stack;
let browser: Browser;
/** A signed-in page per account, shared by the tests whose subject is a page rather than the session. */
let signedIn: ReturnType<typeof sharedSessions>;
const foreign: string[] = [];

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  starting = startStackAndBrowser(DEVICES);
  [stack, browser] = await starting.ready;
  signedIn = sharedSessions(browser, stack, foreign);
}, STACK_START_TIMEOUT_MS);

afterAll(async () => {
  await starting?.stop();
});

async function registration(deviceId: string) {
  const response = await fetch(`${stack.vigil.url}/devices/${encodeURIComponent(deviceId)}/registration`, {
    headers: { authorization: `Bearer ${stack.keys.client}` },
  });
  return (await response.json()) as { status: string; user_id: string; deactivation_reason: string | null };
}

/** Posts one event with emulator evidence for a device; answers its risk score. */
async function riskyEvent(deviceId: string, identity: string): Promise<{ id: string; score: number }> {
  const response = await fetch(`${stack.vigil.url}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.keys.write}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      event: 'login',
      identity,
      properties: {
        device_id: deviceId,
        ip_address: '198.51.100.7',
        device_signals: { version: 1, platform: 'android', emulator: { evidence: ['build.hardware=goldfish'] } },
      },
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { event_id: string; risk_score: number };
  return { id: body.event_id, score: body.risk_score };
}

describe('console reporting features against the merged server', () => {
  it('finds devices by id prefix and by user id prefix', async () => {
    const { page } = await signedIn(stack.supervisor, '/devices');
    await page.getByLabel('Device id starts with').fill('dev-0001');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/id=dev-0001/);
    const expected = stack.seeded.devices.filter((d) => d.id.startsWith('dev-0001')).map((d) => d.id);
    await containsText(page.getByTestId('pager-summary'), `of ${expected.length.toLocaleString('en-US')} devices`);
    expect(new Set(await columnTexts(page, 'Device'))).toEqual(new Set(expected.slice(0, 50)));

    await page.goto('/devices?user=user-0002');
    const byUser = stack.seeded.devices.filter((d) => d.userId.startsWith('user-0002'));
    await containsText(page.getByTestId('pager-summary'), `of ${byUser.length.toLocaleString('en-US')} devices`);
    for (const user of await columnTexts(page, 'User')) expect(user.startsWith('user-0002')).toBe(true);
  });

  it('shows a risk column and sorts by risk and by last seen from the column headings', async () => {
    const { page } = await signedIn(stack.supervisor, '/devices');
    await page.getByRole('link', { name: /^Risk/ }).click();
    await atUrl(page, /sort=risk_desc/);
    const scores = (await columnTexts(page, 'Risk')).map((t) => (t.trim() === '—' ? -1 : Number(t)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0);
    await page.getByRole('link', { name: /^Risk/ }).click();
    await atUrl(page, /sort=risk_asc/);
    const ascending = (await columnTexts(page, 'Risk')).map((t) => (t.trim() === '—' ? 2 : Number(t)));
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await page.getByRole('link', { name: /^Last seen/ }).click();
    await atUrl(page, /\/devices(\?|$)/);
    await shot(page, '20-devices-by-risk');
  });

  it('bulk-transfers every device of a branch on the page, after a confirmation that names the count', async () => {
    const branch = BRANCHES[3];
    const role = ROLES[2];
    const targets = stack.seeded.devices.filter((d) => d.branch === branch && d.role === role);
    expect(targets.length).toBeGreaterThan(1);
    expect(targets.length).toBeLessThanOrEqual(200);
    const { page } = await signedIn(stack.supervisor, `/devices?branch=${branch}&role=${role}&size=200`);
    await page.getByLabel('Select all devices on this page').check();
    await page.getByLabel('With the selected devices').selectOption('transfer');
    await page.getByLabel('New user id (to transfer)').fill('branch-closed-holder');
    await page.getByRole('button', { name: 'Review selection…' }).click();
    const confirm = page.getByTestId('bulk-confirm');
    await containsText(confirm.locator('h2'), `Transfer ${targets.length} devices to branch-closed-holder?`);
    await confirm.getByRole('button', { name: `Transfer ${targets.length} devices to branch-closed-holder` }).click();
    const results = page.getByTestId('bulk-results');
    await containsText(results.locator('h2'), `Transferred ${targets.length} of ${targets.length} devices`);
    await hasCount(results.locator('tbody tr[data-outcome="CHANGED"]'), targets.length);
    for (const d of targets.slice(0, 5)) expect((await registration(d.id)).user_id).toBe('branch-closed-holder');
    await shot(page, '21-bulk-transfer');
  });

  it("bulk-deactivates without JavaScript, with a result per device in the server's words", async () => {
    const a = stack.seeded.devices[40]!;
    const b = stack.seeded.devices[41]!;
    // One of them is deactivated already: its result says so and keeps its reason.
    const token = await (async () => {
      const r = await fetch(`${stack.vigil.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(stack.supervisor),
      });
      return ((await r.json()) as { token: string }).token;
    })();
    await graphqlAs(stack.vigil.url, token, 'mutation($id: ID!) { deactivateDevice(deviceId: $id, reason: "earlier") { id } }', { id: b.id });
    const { page } = await signedIn(stack.supervisor, '/devices?sort=device_id&id=dev-0004', { javaScriptEnabled: false });
    await page.getByLabel(`Select ${a.id}`).check();
    await page.getByLabel(`Select ${b.id}`).check();
    await page.getByLabel('Reason (to deactivate)').fill('audit 2026');
    await page.getByRole('button', { name: 'Review selection…' }).click();
    await containsText(page.getByTestId('bulk-confirm').locator('h2'), 'Deactivate 2 devices?');
    await page.getByRole('button', { name: 'Deactivate 2 devices' }).click();
    const results = page.getByTestId('bulk-results');
    await containsText(results.locator(`tr[data-outcome="CHANGED"]`), a.id);
    await containsText(results.locator(`tr[data-outcome="UNCHANGED"]`), b.id);
    await containsText(results.locator(`tr[data-outcome="UNCHANGED"]`), 'already deactivated');
    expect(await registration(a.id)).toMatchObject({ status: 'deactivated', deactivation_reason: 'audit 2026' });
    expect(await registration(b.id)).toMatchObject({ status: 'deactivated', deactivation_reason: 'earlier' });
  });

  it('downloads the current filter as CSV through the console, with progress when JavaScript is on', async () => {
    const branch = BRANCHES[1];
    const expected = stack.seeded.devices.filter((d) => d.branch === branch).length;
    const { page } = await signedIn(stack.viewer, `/devices?branch=${branch}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^vigil-devices-\d{4}-\d\d-\d\d\.csv$/);
    await hasText(page.getByTestId('download-progress'), `Downloaded ${expected.toLocaleString('en-US')} rows.`);
    // The same link as a plain request: streamed CSV, one line per device plus the header.
    const response = await page.request.get(`/export/devices?branch=${branch}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/csv');
    const lines = (await response.text()).trim().split('\n');
    expect(lines.length).toBe(expected + 1);
  });

  it('reports events by tag over time and devices by status, as tables (no JavaScript needed) and charts', async () => {
    const { page } = await signedIn(stack.admin, '/reports?range=24h&by=tag&bucket=hour&devices_by=status');
    await isVisible(page.getByTestId('event-totals'));
    await containsText(page.getByTestId('event-totals'), 'emulator');
    await containsText(page.getByTestId('device-stats'), 'active');
    await isVisible(page.locator('figure[role="img"] .recharts-wrapper').first());
    await shot(page, '22-reports');

    const plain = await signedIn(stack.admin, '/reports?by=branch&devices_by=branch', { javaScriptEnabled: false });
    for (const branch of BRANCHES) await containsText(plain.page.getByTestId('device-stats'), branch);
    await containsText(plain.page.getByTestId('event-totals'), BRANCHES[0]);
  });

  it('shows risky events as they arrive, holds them while paused, and shows the latest without JavaScript', async () => {
    const { page } = await signedIn(stack.supervisor, '/live');
    await hasText(page.getByTestId('live-status'), 'Live');
    const first = await riskyEvent('live-phone-1', 'live-user');
    expect(first.score).toBeGreaterThanOrEqual(0.05);
    await isVisible(page.locator(`[data-testid="live-table"] tr[data-event-id="${first.id}"]`));
    // Newest first.
    await hasText(page.locator('[data-testid="live-table"] tbody tr').first().locator('td').nth(2), 'live-user');

    await page.getByRole('button', { name: 'Pause' }).click();
    const second = await riskyEvent('live-phone-2', 'live-user');
    await hasText(page.getByTestId('live-status'), 'Paused · 1 new');
    expect(await page.locator(`tr[data-event-id="${second.id}"]`).count()).toBe(0);
    await page.getByRole('button', { name: 'Resume (1 new)' }).click();
    await isVisible(page.locator(`tr[data-event-id="${second.id}"]`));
    await shot(page, '23-live');

    const plain = await signedIn(stack.supervisor, '/live', { javaScriptEnabled: false });
    await isVisible(plain.page.locator(`tr[data-event-id="${second.id}"]`));
    await isVisible(plain.page.getByRole('link', { name: 'Refresh' }));
  });

  it('made the browser talk to the console only', async () => {
    await eventually(async () => expect(foreign).toEqual([]));
  });
});
