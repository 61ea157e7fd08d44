import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, BrowserContextOptions, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { atUrl, containsText, hasCount, hasText, hasValue, isHidden, isVisible } from './eventually';
import { columnTexts, deviceCall, openPage, openSignedIn, SHOTS, sharedSessions, shot, signIn } from './pages';
import { BRANCHES, ROLES } from './seed';
import { STACK_START_TIMEOUT_MS, type Started, startStackAndBrowser, type Stack } from './stack';

const DEVICES = Number(process.env.VIGIL_CONSOLE_E2E_DEVICES ?? 3000);

let starting: Started | undefined;
let stack: Stack;
let browser: Browser;
/** A signed-in page per account, shared by the tests whose subject is a page rather than the session. */
let signedIn: ReturnType<typeof sharedSessions>;
/** Every address the browser asked for outside the console: must stay empty (no CDN, font or direct API call). */
const foreign: string[] = [];

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  const started = Date.now();
  starting = startStackAndBrowser(DEVICES);
  [stack, browser] = await starting.ready;
  signedIn = sharedSessions(browser, stack, foreign);
  console.log(`stack up on ${stack.database} in ${Date.now() - started} ms: ${stack.seeded.devices.length} devices registered, ${stack.seeded.events} events`);
}, STACK_START_TIMEOUT_MS);

afterAll(async () => {
  await starting?.stop();
});

const newPage = (width = 1440, height = 900, options: BrowserContextOptions = {}) =>
  openPage(browser, stack, foreign, { viewport: { width, height }, ...options });

const sessionCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'vigil_session');

async function registration(deviceId: string) {
  return (await deviceCall(stack, 'GET', deviceId, 'registration')).json as { status: string; user_id: string; deactivation_reason: string | null };
}

describe('supervisor console against the real server', () => {
  it('refuses a wrong password, then signs in and keeps the session in an httpOnly SameSite=Lax cookie', async () => {
    const { context, page } = await newPage();
    await page.goto('/devices');
    await atUrl(page, /\/login\?next=%2Fdevices/);
    await shot(page, '01-sign-in');
    await page.getByLabel('Username').fill(stack.admin.username);
    await page.getByLabel('Password').fill('not-the-password-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await hasText(page.locator('.login-card [role="alert"]'), 'Wrong username or password.');
    expect(await sessionCookie(context)).toBeUndefined();

    await page.getByLabel('Password').fill(stack.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/devices$/);
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000);
    await context.close();
  });

  it('shows the overview with device counts by status and the share of risky events', async () => {
    const { page } = await signedIn(stack.admin);
    const counts = page.getByTestId('device-counts');
    const registered = stack.seeded.devices.length;
    await containsText(counts, `Active${registered.toLocaleString('en-US')}`);
    await containsText(counts, `Unregistered${stack.seeded.unregistered.length.toLocaleString('en-US')}`);
    await containsText(page.getByTestId('risk-share'), `of ${stack.seeded.events.toLocaleString('en-US')} scored`);
    await isVisible(page.locator('.recharts-surface').first());
    await shot(page, '02-overview');
  });

  it('filters devices by role and by branch from the facets, keeps the filters in the URL, and Back restores them', async () => {
    const { page } = await signedIn(stack.admin, '/devices');
    const total = stack.seeded.devices.length + stack.seeded.unregistered.length;
    await containsText(page.getByTestId('pager-summary'), `of ${total.toLocaleString('en-US')} devices`);

    const role = ROLES[0];
    const withRole = stack.seeded.devices.filter((d) => d.role === role);
    await page.getByLabel('Role').selectOption(role);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`/devices\\?role=${role}$`));
    await containsText(page.getByTestId('pager-summary'), `1–50 of ${withRole.length.toLocaleString('en-US')} devices`);
    expect(new Set(await columnTexts(page, 'Role'))).toEqual(new Set([role]));

    // Server-side paging with cursors; each page is an address of its own.
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/after=/);
    await containsText(page.getByTestId('pager-summary'), `51–100 of ${withRole.length.toLocaleString('en-US')} devices · page 2`);
    const secondPage = await columnTexts(page, 'Device');
    // Previous is the browser's Back; Forward returns to the same second page.
    await page.getByRole('button', { name: '← Previous' }).click();
    await containsText(page.getByTestId('pager-summary'), '1–50 of');
    await atUrl(page, new RegExp(`/devices\\?role=${role}$`));
    await page.goForward();
    await containsText(page.getByTestId('pager-summary'), 'page 2');
    expect(await columnTexts(page, 'Device')).toEqual(secondPage);
    await page.goBack();
    await atUrl(page, new RegExp(`/devices\\?role=${role}$`));

    const branch = BRANCHES[2];
    const both = withRole.filter((d) => d.branch === branch);
    await page.getByLabel('Branch', { exact: true }).selectOption(branch);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`/devices\\?role=${role}&branch=${branch}$`));
    await containsText(page.getByTestId('pager-summary'), `of ${both.length.toLocaleString('en-US')} devices`);
    expect(new Set(await columnTexts(page, 'Branch'))).toEqual(new Set([branch]));
    expect(new Set(await columnTexts(page, 'Role'))).toEqual(new Set([role]));
    await shot(page, '03-devices-filtered');

    // Back restores the previous filters, in the URL and in the form.
    await page.goBack();
    await atUrl(page, new RegExp(`/devices\\?role=${role}$`));
    await hasValue(page.getByLabel('Role'), role);
    await hasValue(page.getByLabel('Branch', { exact: true }), '');
    await containsText(page.getByTestId('pager-summary'), `of ${withRole.length.toLocaleString('en-US')} devices`);

    // A shared link opens the same filtered page for another account: the filters live in the address alone.
    const other = await signedIn(stack.supervisor, `/devices?role=${role}&branch=${branch}`);
    await hasValue(other.page.getByLabel('Branch', { exact: true }), branch);
    await containsText(other.page.getByTestId('pager-summary'), `of ${both.length.toLocaleString('en-US')} devices`);

    // Sorted by last seen: the first rows were seen most recently.
    await page.goto('/devices');
    const seen = await columnTexts(page, 'Last seen');
    expect(seen[0]).toMatch(/ago|just now/);
  });

  it('deactivates with a required reason, reactivates and transfers a device, with confirmation and feedback', async () => {
    const device = stack.seeded.devices[1]!;
    const { page } = await signedIn(stack.supervisor, `/devices/${device.id}`);
    await hasText(page.getByTestId('registered-user'), device.userId);
    // Registered without a Keystore key: its events are not held to one.
    await containsText(page.getByTestId('device-key'), 'Not bound');

    // Deactivate: the confirmation dialog does not submit without a reason.
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate this device?' });
    await isVisible(dialog);
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();
    await isVisible(dialog);
    expect((await registration(device.id)).status).toBe('active');
    await dialog.getByLabel('Reason (required)').fill('Phone reported stolen at the branch');
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();
    await hasText(page.getByTestId('feedback'), `Device ${device.id} deactivated.`);
    await isHidden(dialog);
    await hasText(page.getByTestId('deactivation-reason'), 'Phone reported stolen at the branch');
    await containsText(page.getByTestId('audit-table'), 'Phone reported stolen at the branch');
    expect(await registration(device.id)).toMatchObject({ status: 'deactivated', deactivation_reason: 'Phone reported stolen at the branch' });
    await shot(page, '04-device-deactivated');

    // Reactivate.
    await page.getByRole('button', { name: 'Reactivate', exact: true }).click();
    const again = page.getByRole('dialog', { name: 'Reactivate this device?' });
    await again.getByLabel('Reason (required)').fill('Phone recovered');
    await again.getByRole('button', { name: 'Reactivate device' }).click();
    await hasText(page.getByTestId('feedback'), `Device ${device.id} reactivated.`);
    expect((await registration(device.id)).status).toBe('active');
    await isVisible(page.getByRole('button', { name: 'Deactivate', exact: true }));

    // Transfer: a blank user id is refused with a clear error, then a real one moves the registration.
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const transfer = page.getByRole('dialog', { name: 'Transfer this device?' });
    await transfer.getByLabel('New user id (required)').fill('   ');
    await transfer.getByRole('button', { name: 'Transfer device' }).click();
    await hasText(transfer.getByRole('alert'), 'A new user id is required.');
    await transfer.getByLabel('New user id (required)').fill('user-transferred-42');
    await transfer.getByRole('button', { name: 'Transfer device' }).click();
    await hasText(page.getByTestId('feedback'), `Device ${device.id} transferred from ${device.userId} to user-transferred-42.`);
    await hasText(page.getByTestId('registered-user'), 'user-transferred-42');
    await containsText(page.getByTestId('audit-table'), `${device.userId} → user-transferred-42`);
    expect(await registration(device.id)).toMatchObject({ status: 'active', user_id: 'user-transferred-42' });
    await shot(page, '05-device-page');
  });

  it('refuses a replayed action from another origin or without an Origin header (CSRF)', async () => {
    const device = stack.seeded.devices[5]!;
    const { context, page } = await signedIn(stack.supervisor, `/devices/${device.id}`);
    const captured: { headers: Record<string, string>; body: string | null }[] = [];
    const capture = (request: Request) => {
      if (request.method() === 'POST' && request.headers()['next-action']) captured.push({ headers: request.headers(), body: request.postData() });
    };
    // The page is shared with later tests (signedIn): the listener goes with this test.
    page.on('request', capture);
    onTestFinished(() => {
      page.off('request', capture);
    });
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate this device?' });
    await dialog.getByLabel('Reason (required)').fill('Legitimate deactivation');
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();
    await hasText(page.getByTestId('feedback'), `Device ${device.id} deactivated.`);
    await page.getByRole('button', { name: 'Reactivate', exact: true }).click();
    const re = page.getByRole('dialog', { name: 'Reactivate this device?' });
    await re.getByLabel('Reason (required)').fill('Back in service');
    await re.getByRole('button', { name: 'Reactivate device' }).click();
    await hasText(page.getByTestId('feedback'), `Device ${device.id} reactivated.`);
    expect((await registration(device.id)).status).toBe('active');

    const deactivation = captured.find((c) => c.body?.includes('Legitimate deactivation'));
    expect(deactivation).toBeDefined();
    const cookie = await sessionCookie(context);
    const replay = async (origin: string | null) => {
      const headers: Record<string, string> = {
        'next-action': deactivation!.headers['next-action']!,
        'content-type': deactivation!.headers['content-type']!,
        accept: 'text/x-component',
        cookie: `vigil_session=${cookie!.value}`,
      };
      if (origin) headers.origin = origin;
      return fetch(`${stack.console.url}/devices/${device.id}`, { method: 'POST', headers, body: deactivation!.body! });
    };
    await replay('http://evil.example');
    await replay(null);
    expect((await registration(device.id)).status).toBe('active');
    // The same request from the console's own origin goes through: the refusals above were for the origin alone.
    expect((await replay(stack.console.url)).status).toBe(200);
    expect(await registration(device.id)).toMatchObject({ status: 'deactivated', deactivation_reason: 'Legitimate deactivation' });
  });

  it('creates a write key whose secret is shown once with a copy button, and revokes it with confirmation', async () => {
    const { page } = await signedIn(stack.admin, '/security');
    await page.getByLabel('Kind').selectOption('write');
    await page.getByLabel('Name').fill('e2e checkout backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('secret').locator('code');
    await hasText(secret, /^vigil_wk_[A-Za-z0-9]{20,}$/);
    const key = (await secret.textContent())!;
    await page.getByTestId('secret').getByRole('button', { name: 'Copy' }).click();
    await isVisible(page.getByTestId('secret').getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const row = page.locator('tr[data-key-name="e2e checkout backend"]');
    await containsText(row, key.slice(0, 12));
    await containsText(row, 'active');
    await shot(page, '06-security-key-created');

    const send = () =>
      fetch(`${stack.vigil.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'login', identity: 'e2e' }),
      });
    expect((await send()).status).toBe(200);

    // The secret is never shown again.
    await page.reload();
    await hasCount(page.getByTestId('secret'), 0);
    expect(await page.content()).not.toContain(key);

    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “e2e checkout backend”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await isHidden(dialog);
    await containsText(row, 'active');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await containsText(page.getByTestId('feedback'), 'Key “e2e checkout backend” revoked.');
    await containsText(row, 'revoked');
    await hasCount(row.getByRole('button', { name: 'Revoke' }), 0);
    expect((await send()).status).toBe(401);
  });

  it('rotates a key from the Security page: the new secret shown once, the old key working through the overlap', async () => {
    const { page } = await signedIn(stack.admin, '/security');
    await page.getByLabel('Kind').selectOption('write');
    await page.getByLabel('Name').fill('e2e rotated backend');
    await page.getByLabel('Expires in (days)').fill('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const oldKey = (await page.getByTestId('secret').locator('code').textContent())!;
    const row = page.locator('tr[data-key-name="e2e rotated backend"]');
    await containsText(row, 'active');
    await containsText(row, 'in 29 days');

    await row.getByRole('button', { name: 'Rotate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate “e2e rotated backend”?' });
    await dialog.getByLabel('Overlap (hours)').fill('2');
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await containsText(page.getByTestId('feedback'), 'Key “e2e rotated backend” rotated.');
    const newKey = (await page.getByTestId('feedback').getByTestId('secret').locator('code').textContent())!;
    expect(newKey).toMatch(/^vigil_wk_/);
    expect(newKey).not.toBe(oldKey);
    // Both rows carry the name: the old one rotating (pointing at the new one), the new one active.
    await containsText(row.filter({ hasText: 'rotating' }), newKey.slice(0, 13));
    await hasCount(row.filter({ hasText: 'active' }), 1);
    await shot(page, '06b-security-key-rotated');

    const send = (key: string) =>
      fetch(`${stack.vigil.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'login', identity: 'e2e' }),
      });
    expect((await send(oldKey)).status).toBe(200);
    expect((await send(newKey)).status).toBe(200);
  });

  it('lets an admin create accounts and API tokens, and revoke tokens, on the Supervisors page', async () => {
    const { page } = await signedIn(stack.admin, '/supervisors');
    await page.getByLabel('Username').fill('e2e-new-viewer');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create account' }).click();
    const password = (await page.getByTestId('secret').locator('code').textContent())!;
    expect(password.length).toBeGreaterThanOrEqual(12);
    await containsText(page.getByTestId('supervisors-table'), 'e2e-new-viewer');

    // An API token for a script, shown once; it works on the supervisor API until it is revoked.
    await page.getByLabel('Acts as').selectOption('e2e-new-viewer');
    await page.getByLabel('Name', { exact: true }).fill('nightly export');
    await page.getByRole('button', { name: 'Create token' }).click();
    const tokenSecret = page.getByTestId('secret').filter({ hasNotText: password }).locator('code');
    await hasText(tokenSecret, /^\S{20,}$/);
    const token = (await tokenSecret.textContent())!;
    const me = () => fetch(`${stack.vigil.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await (await me()).json()) as { username: string }).username).toBe('e2e-new-viewer');
    const row = page.getByTestId('tokens-table').locator('tr', { hasText: 'nightly export' });
    await containsText(row, 'active');
    await shot(page, '07-supervisors');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke token “nightly export”?' }).getByRole('button', { name: 'Revoke token' }).click();
    await containsText(page.getByTestId('feedback'), 'Token “nightly export” revoked.');
    await containsText(row, 'revoked');
    expect((await me()).status).toBe(401);

    // The new account signs in.
    const fresh = await newPage();
    await signIn(fresh.page, { username: 'e2e-new-viewer', password });
    await fresh.context.close();
  });

  it('lets an admin lock out an account: end a session, disable, enable, reset the password, change the role, delete; all audited', async () => {
    const { page } = await signedIn(stack.admin, '/supervisors');
    await page.getByLabel('Username').fill('e2e-ops');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create account' }).click();
    const ops = { username: 'e2e-ops', password: (await page.getByTestId('secret').locator('code').textContent())! };
    const row = page.locator('tr[data-username="e2e-ops"]');
    await containsText(row, 'active');

    // The account signs in elsewhere; the admin sees the session and ends it.
    const other = await newPage();
    await signIn(other.page, ops, '/devices');
    await page.reload();
    const sessionRow = page.getByTestId('sessions-table').locator('tr', { hasText: 'e2e-ops' });
    await hasCount(sessionRow, 1);
    await sessionRow.getByRole('button', { name: 'End' }).click();
    await page.getByRole('dialog', { name: 'End this session of e2e-ops?' }).getByRole('button', { name: 'End session' }).click();
    await containsText(page.getByTestId('feedback'), 'Session of e2e-ops ended.');
    await hasCount(sessionRow, 0);
    await other.page.goto('/events');
    await atUrl(other.page, /\/login\?expired=1/);

    // Disabled: signed out everywhere, and sign-in says why.
    await signIn(other.page, ops, '/devices');
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog', { name: 'Disable e2e-ops?' }).getByRole('button', { name: 'Disable account' }).click();
    await containsText(page.getByTestId('feedback'), 'e2e-ops disabled');
    await containsText(row, 'disabled');
    await other.page.goto('/events');
    await atUrl(other.page, /\/login\?expired=1/);
    await other.page.getByLabel('Username').fill(ops.username);
    await other.page.getByLabel('Password').fill(ops.password);
    await other.page.getByRole('button', { name: 'Sign in' }).click();
    await containsText(other.page.locator('.login-card [role="alert"]'), 'This account is disabled');
    await shot(page, '08-supervisors-disabled');

    await row.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('dialog', { name: 'Enable e2e-ops?' }).getByRole('button', { name: 'Enable account' }).click();
    await containsText(page.getByTestId('feedback'), 'e2e-ops enabled');
    await containsText(row, 'active');

    // Reset: the new password is shown once, the old one no longer signs in.
    await row.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('dialog', { name: 'Reset the password of e2e-ops?' }).getByRole('button', { name: 'Reset password' }).click();
    await containsText(page.getByTestId('feedback'), 'New password for e2e-ops');
    const secret = page.getByTestId('feedback').getByTestId('secret').locator('code');
    await hasText(secret, /^\S{20,}$/);
    const password = (await secret.textContent())!;
    expect(password).not.toBe(ops.password);
    const signInAs = (pw: string) =>
      fetch(`${stack.vigil.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: ops.username, password: pw }),
      });
    expect((await signInAs(ops.password)).status).toBe(401);
    expect((await signInAs(password)).status).toBe(200);
    await page.reload();
    await hasCount(page.getByTestId('secret'), 0);
    expect(await page.content()).not.toContain(password);

    await row.getByRole('button', { name: 'Change role' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Change the role of e2e-ops?' });
    await roleDialog.getByLabel('New role').selectOption('supervisor');
    await roleDialog.getByRole('button', { name: 'Change role' }).click();
    await containsText(page.getByTestId('feedback'), 'e2e-ops is now supervisor.');
    await containsText(row, 'supervisor');

    // The only admin cannot disable itself: the refusal stays in the dialog.
    const self = page.locator(`tr[data-username="${stack.admin.username}"]`);
    await self.getByRole('button', { name: 'Disable' }).click();
    const selfDialog = page.getByRole('dialog', { name: `Disable ${stack.admin.username}?` });
    await selfDialog.getByRole('button', { name: 'Disable account' }).click();
    await containsText(selfDialog.getByRole('alert'), 'last enabled admin');
    await selfDialog.getByRole('button', { name: 'Cancel' }).click();
    await containsText(self, 'active');

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete e2e-ops?' }).getByRole('button', { name: 'Delete account' }).click();
    await containsText(page.getByTestId('feedback'), 'e2e-ops deleted');
    await hasCount(row, 0);
    expect((await signInAs(password)).status).toBe(401);

    // Every step is in the account audit, by the admin, with the deleted account's name kept.
    const audit = page.getByTestId('account-audit-table').locator('tbody tr', { hasText: 'e2e-ops' });
    expect((await audit.locator('td:nth-child(3)').allTextContents()).slice(0, 7)).toEqual([
      'deleted',
      'changed the role',
      'reset the password',
      'enabled',
      'disabled',
      'ended a session',
      'created the account',
    ]);
    await containsText(audit.first(), stack.admin.username);
    await shot(page, '08-supervisors-audit');
    await other.context.close();
  });

  it('shows a viewer no action buttons and no admin pages, and the API refuses the viewer anyway', async () => {
    const device = stack.seeded.devices[2]!;
    const { context, page } = await signedIn(stack.viewer, `/devices/${device.id}`);
    await hasText(page.getByTestId('registered-user'), device.userId);
    await hasCount(page.getByTestId('device-actions'), 0);
    await hasCount(page.getByRole('button', { name: /Deactivate|Reactivate|Transfer/ }), 0);
    await hasText(page.getByRole('navigation', { name: 'Main' }).getByRole('link'), ['Overview', 'Devices', 'Events', 'Reports', 'Live']);
    await shot(page, '08-viewer-device');
    await page.goto('/security');
    await atUrl(page, /\/\?denied=admin$/);

    const token = (await sessionCookie(context))!.value;
    const response = await fetch(`${stack.vigil.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation { deactivateDevice(deviceId: "${device.id}", reason: "viewer try") { id } }` }),
    });
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0]?.extensions?.code).toBe('forbidden');
    expect((await registration(device.id)).status).toBe('active');
  });

  it('charts events and mean risk over time and per tag, and filters events by tag', async () => {
    const { page } = await signedIn(stack.admin, '/events');
    await hasCount(page.locator('figure[role="img"] .recharts-wrapper'), 3);
    await page.getByLabel('Tag', { exact: true }).selectOption('emulator');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/tag=emulator/);
    const tags = await page.locator('[data-testid="events-table"] tbody tr td:nth-child(6)').allTextContents();
    expect(tags.length).toBeGreaterThan(0);
    for (const t of tags) expect(t).toContain('emulator');
    await shot(page, '09-events');

    // Branch, role and user are the device's registration when the event was answered.
    const device = stack.seeded.devices[0]!;
    await page.getByLabel('Tag', { exact: true }).selectOption('');
    await page.getByLabel('Branch').selectOption(device.branch);
    await page.getByLabel('Role').selectOption(device.role);
    await page.getByLabel('Registered to').fill(device.userId);
    await page.getByLabel('Range of').selectOption('received');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/user=/);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ branch: device.branch, role: device.role, user: device.userId, time: 'received' });
    const matching = stack.seeded.devices.filter((d) => d.userId === device.userId && d.branch === device.branch && d.role === device.role).map((d) => d.id);
    const devices = await page.locator('[data-testid="events-table"] tbody tr td:nth-child(4)').allTextContents();
    expect(devices).toContain(device.id);
    for (const d of devices) expect(matching).toContain(d);
    await page.getByLabel('Branch').selectOption(stack.seeded.devices.find((d) => d.branch !== device.branch)!.branch);
    await page.getByRole('button', { name: 'Apply' }).click();
    await containsText(page.locator('.empty'), 'No event matches these filters');
  });

  it('sends an expired session back to sign-in and returns to the page afterwards', async () => {
    const { context, page } = await newPage();
    await openSignedIn(page, stack, stack.supervisor, '/devices');
    const token = (await sessionCookie(context))!.value;
    // The session ends on the server (as at expiry or revocation) while the browser still holds the cookie.
    expect((await fetch(`${stack.vigil.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await page.goto('/events?tag=emulator');
    await atUrl(page, /\/login\?expired=1&next=%2Fevents%3Ftag%3Demulator$/);
    await containsText(page.locator('.login-card [role="status"]'), 'Your session has expired');
    expect(await sessionCookie(context)).toBeUndefined();
    await page.getByLabel('Username').fill(stack.supervisor.username);
    await page.getByLabel('Password').fill(stack.supervisor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/events\?tag=emulator$/);
    await context.close();
  });

  it('signs out: the session ends on the server and the console asks to sign in again', async () => {
    const { context, page } = await newPage();
    await openSignedIn(page, stack, stack.admin);
    const token = (await sessionCookie(context))!.value;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login\?signed_out=1$/);
    expect(await sessionCookie(context)).toBeUndefined();
    const me = await fetch(`${stack.vigil.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    await page.goto('/');
    await atUrl(page, /\/login$/);
    await context.close();
  });

  it('works in a narrow window and with the keyboard alone', async () => {
    const { context, page } = await newPage(390, 844);
    await page.goto('/login');
    // The username field has the focus on arrival.
    await page.keyboard.type(stack.supervisor.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(stack.supervisor.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/devices');
    // No horizontal scrolling of the page itself: wide tables scroll inside their own box.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByLabel('Status').focus();
    await page.getByLabel('Status').selectOption('deactivated');
    await page.getByRole('button', { name: 'Apply' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/status=deactivated/);
    await shot(page, '10-devices-narrow');
    await context.close();
  });

  it('opens and acts on devices whose ids hold %, /, .., spaces and unicode, linked from the list', async () => {
    const odd = ['100%-off', 'a/b/../c', '..', '.', 'with space', 'ünï-設備-📱', '%E0%A4%A'];
    for (const id of odd) {
      const answer = await deviceCall(stack, 'POST', id, 'register', { user_id: 'odd-ids-owner', metadata: { role: 'teller', branch: 'north' } });
      expect(answer.status, `register ${id}: ${JSON.stringify(answer.json)}`).toBe(200);
    }
    const { page } = await signedIn(stack.supervisor, '/devices?user=odd-ids-owner');
    expect(new Set(await columnTexts(page, 'Device'))).toEqual(new Set(odd));
    for (const id of odd) {
      await page.goto('/devices?user=odd-ids-owner');
      await page.getByRole('link', { name: id, exact: true }).click();
      await hasText(page.locator('h1 .mono'), id);
      await hasText(page.getByTestId('registered-user'), 'odd-ids-owner');
      await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Deactivate this device?' });
      await dialog.getByLabel('Reason (required)').fill(`odd id ${id}`);
      await dialog.getByRole('button', { name: 'Deactivate device' }).click();
      await hasText(page.getByTestId('feedback'), `Device ${id} deactivated.`);
      expect(await registration(id)).toMatchObject({ status: 'deactivated', deactivation_reason: `odd id ${id}` });
    }
    // A shared address of such a device opens it too.
    await page.goto(`/devices/${encodeURIComponent('100%-off')}`);
    await hasText(page.locator('h1 .mono'), '100%-off');
  });

  it('says so when a change changes nothing: already deactivated (reason kept), transfer to the same user', async () => {
    const device = stack.seeded.devices[7]!;
    const { context, page } = await newPage(1440, 900, { timezoneId: 'UTC' });
    await openSignedIn(page, stack, stack.supervisor, `/devices/${device.id}`);
    // A second tab opened before the change still offers Deactivate.
    const stale = await context.newPage();
    await stale.goto(`/devices/${device.id}`);
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Deactivate this device?' });
    await dialog.getByLabel('Reason (required)').fill('first reason');
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();
    await hasText(page.getByTestId('feedback'), `Device ${device.id} deactivated.`);

    await stale.getByRole('button', { name: 'Deactivate', exact: true }).click();
    dialog = stale.getByRole('dialog', { name: 'Deactivate this device?' });
    await dialog.getByLabel('Reason (required)').fill('second reason');
    await dialog.getByRole('button', { name: 'Deactivate device' }).click();
    await hasText(
      stale.getByTestId('feedback'),
      new RegExp(`^Device ${device.id} was already deactivated since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC; reason kept: “first reason”\\.$`),
    );
    expect(await registration(device.id)).toMatchObject({ status: 'deactivated', deactivation_reason: 'first reason' });

    await stale.getByRole('button', { name: 'Transfer', exact: true }).click();
    dialog = stale.getByRole('dialog', { name: 'Transfer this device?' });
    await dialog.getByLabel('New user id (required)').fill(device.userId);
    await dialog.getByRole('button', { name: 'Transfer device' }).click();
    await hasText(stale.getByTestId('feedback'), `Device ${device.id} is already registered to ${device.userId}; nothing changed.`);
    await context.close();
  });

  it('applies filters on submit only, so a keyboard user can step through options, and gives focus back', async () => {
    const { page } = await signedIn(stack.admin, '/devices');
    const role = page.getByLabel('Role');
    await role.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    // Nothing applied yet, and the focus is still on the select.
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-role');
    const chosen = await role.inputValue();
    expect(chosen).not.toBe('');
    await page.getByRole('button', { name: 'Apply' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`role=${chosen}`));
    await containsText(page.getByTestId('pager-summary'), 'devices');
    await hasValue(page.getByLabel('Role'), chosen);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-apply');
  });

  it('pages with a chosen page size and an address that does not grow; First page and Previous go back', async () => {
    const { page } = await signedIn(stack.admin, '/devices');
    await page.getByLabel('Per page').selectOption('25');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/size=25/);
    await containsText(page.getByTestId('pager-summary'), '1–25 of');
    const lengths: number[] = [];
    for (let n = 2; n <= 5; n++) {
      await page.getByRole('link', { name: 'Next →' }).click();
      await containsText(page.getByTestId('pager-summary'), `${(n - 1) * 25 + 1}–${n * 25} of`);
      expect(page.url()).not.toContain('trail');
      lengths.push(page.url().length);
    }
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: '← Previous' }).click();
    await containsText(page.getByTestId('pager-summary'), '76–100 of');
    await page.getByRole('link', { name: '⇤ First page' }).click();
    await containsText(page.getByTestId('pager-summary'), '1–25 of');
    await hasValue(page.getByLabel('Per page'), '25');
  });

  it("shows times in the browser's time zone, on pages rendered by the server", async () => {
    const device = stack.seeded.devices[3]!;
    const { context, page } = await newPage(1440, 900, { timezoneId: 'Asia/Kolkata' });
    await openSignedIn(page, stack, stack.admin, '/devices');
    // Chromium's ICU may name the zone by its older alias.
    await hasText(page.locator('.page-head p'), /Times in Asia\/(Kolkata|Calcutta)\./);
    await page.goto(`/devices/${device.id}`);
    const registeredAt = (await registration(device.id)) as unknown as { registered_at: string };
    const expected = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(
      new Date(registeredAt.registered_at),
    );
    await containsText(page.locator('.facts').first(), `${expected} GMT+5:30`);
    await context.close();
  });

  it('renders every page readable with JavaScript off, and its GET forms still filter', async () => {
    const { page } = await signedIn(stack.admin, '/', { javaScriptEnabled: false });
    const device = stack.seeded.devices[5]!;
    const pages: [string, string][] = [
      ['/', 'Overview'],
      ['/devices', 'Devices'],
      [`/devices/${device.id}`, device.id],
      ['/events', 'Events'],
      ['/reports', 'Reports'],
      ['/live', 'Live'],
      ['/security', 'Security'],
      ['/supervisors', 'Supervisors'],
    ];
    for (const [path, heading] of pages) {
      await page.goto(path);
      // Visible, not only present: a loading screen keeps the streamed page in a hidden element.
      await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 5000 });
      await containsText(page.locator('main h1'), heading);
      expect(await page.locator('main').innerText(), path).not.toMatch(/^\s*Loading…\s*$/);
    }
    await page.goto('/devices');
    await page.getByLabel('Role').selectOption(ROLES[1]);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`role=${ROLES[1]}`));
    expect(new Set(await columnTexts(page, 'Role'))).toEqual(new Set([ROLES[1]]));
  });

  it('fits 390 px on every page without horizontal overflow, and shows a long branch name in full', async () => {
    const branch = 'Região Metropolitana de BH – Savassi';
    expect(
      (await deviceCall(stack, 'POST', 'long-branch-phone', 'register', { user_id: 'long-branch-user', metadata: { role: 'teller', branch } })).status,
    ).toBe(200);
    const { context, page } = await newPage(390, 844);
    await openSignedIn(page, stack, stack.admin);
    for (const path of ['/', '/devices', `/devices/${stack.seeded.devices[0]!.id}`, '/events', '/reports', '/live', '/security', '/supervisors']) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await page.goto(`/devices?branch=${encodeURIComponent(branch)}`);
    await hasValue(page.getByLabel('Branch', { exact: true }), branch);
    const fits = await page.getByLabel('Branch', { exact: true }).evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const canvas = document.createElement('canvas').getContext('2d')!;
      canvas.font = style.font;
      const text = canvas.measureText(select.selectedOptions[0]!.text).width;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return { text, room };
    });
    expect(fits.text).toBeLessThanOrEqual(fits.room);
    await shot(page, '11-devices-390');
    await context.close();
  });

  it('made the browser talk to the console only: no font, script or API call went anywhere else', () => {
    expect(foreign).toEqual([]);
  });
});
