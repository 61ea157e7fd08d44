import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { deviceKeys } from '@vigil/drizzle/schema';
import { SecurityLevel } from '@peculiar/asn1-android';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { unbindKey } from './store.js';
import { attestationChain, deviceKey, rootCa, signedHeaders, type TestDeviceKey } from '../test-support/device-keys.js';
import { factCacheCommits } from '../test-support/metrics.js';
import { graphql, supervisorAccounts, supervisorRequest } from '../test-support/supervisors.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';

describe.each(testDrivers())('device binding on %s', (driver) => {
  let server: TestVigil;
  let trusted: Awaited<ReturnType<typeof rootCa>>;
  beforeAll(async () => {
    trusted = await rootCa('CN=Vigil Test Private Attestation Root');
    server = await startTestVigil(driver, { VIGIL_ATTESTATION_EXTRA_ROOTS: trusted.cert.toString('pem') });
  });
  afterAll(async () => server?.close());

  /** A request as the Android library sends it: the body it signed, with the three headers (or none, forged). */
  const send = (path: string, body: unknown, key: TestDeviceKey | null, options: { apiKey?: string; time?: number } = {}) => {
    const text = JSON.stringify(body);
    const headers = key ? signedHeaders(key, { method: 'POST', path, body: text, ...(options.time !== undefined ? { time: options.time } : {}) }) : {};
    return server.post(path, text, { key: options.apiKey ?? server.clientKey, headers });
  };
  const presented = (key: TestDeviceKey, chain: string[] = []) => ({ public_key: key.spki.toString('base64'), attestation_chain: chain });
  const stored = async (deviceId: string) => (await server.database.db.select().from(deviceKeys).where(eq(deviceKeys.deviceId, deviceId)))[0];
  const batchTags = async (deviceId: string, key: TestDeviceKey | null) => {
    const res = await send('/events/batch', { events: [{ event: 'transfer', properties: { device_id: deviceId } }] }, key);
    expect(res.status).toBe(200);
    return res.body.results[0].insights.current_tags as string[];
  };

  it('binds a key with a hardware attestation chain at registration, and concludes what the chain proved', async () => {
    const key = deviceKey();
    // Issued under the configured private root, as Google's roots issue real devices' chains.
    const { chain } = await attestationChain(key, Buffer.from('dev-hw'), SecurityLevel.strongBox, trusted);
    expect((await send('/devices/dev-hw/register', { user_id: 'ana', device_key: presented(key, chain) }, key)).status).toBe(200);
    const row = await stored('dev-hw');
    expect(row).toMatchObject({ keyId: key.keyId, publicKey: key.spki.toString('base64'), attestation: 'strongbox', attestationProblem: null });
    expect(row!.chain).toHaveLength(3);

    // A chain under a root that is not configured: bound all the same, its attestation unverified.
    const other = deviceKey();
    const untrusted = await attestationChain(other, Buffer.from('dev-sw'));
    expect((await send('/devices/dev-sw/register', { user_id: 'ana', device_key: presented(other, untrusted.chain) }, other)).status).toBe(200);
    expect(await stored('dev-sw')).toMatchObject({ attestation: 'unverified', attestationProblem: 'wrong_root' });

    // What the chain proved is shown to supervisors, through REST and GraphQL alike.
    const { token } = (await supervisorAccounts(server)).viewer;
    const rest = await supervisorRequest(server, 'GET', '/api/devices/dev-hw', token);
    expect(rest.body.binding).toEqual({ key_id: key.keyId, attestation: 'strongbox', attestation_problem: null, bound_at: expect.any(String) });
    const query = 'query($id: ID!) { device(id: $id) { binding { keyId attestation attestationProblem boundAt } } }';
    const gql = await graphql(server, token, query, { id: 'dev-sw' });
    expect(gql.body.data.device.binding).toMatchObject({ keyId: other.keyId, attestation: 'unverified', attestationProblem: 'wrong_root' });
    await server.post('/events', { event: 'login', properties: { device_id: 'dev-plain' } });
    expect((await supervisorRequest(server, 'GET', '/api/devices/dev-plain', token)).body.binding).toBeNull();
    expect((await graphql(server, token, query, { id: 'dev-plain' })).body.data.device.binding).toBeNull();
  });

  it('binds a key without a chain (no Keystore) as unverified; a registration its key did not sign binds nothing', async () => {
    const key = deviceKey();
    const unsigned = await send('/devices/dev-jca/register', { user_id: 'ana', device_key: presented(key) }, null);
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('content-type')).toContain('application/problem+json');
    expect(unsigned.body.code).toBe('device_key_mismatch');
    const byAnother = await send('/devices/dev-jca/register', { user_id: 'ana', device_key: presented(key) }, deviceKey());
    expect(byAnother.body.code).toBe('device_key_mismatch');
    expect(await stored('dev-jca')).toBeUndefined();
    expect((await server.get('/devices/dev-jca/registration', { key: server.clientKey })).body.is_registered).toBe(false);

    expect((await send('/devices/dev-jca/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);
    expect(await stored('dev-jca')).toMatchObject({ attestation: 'unverified', attestationProblem: 'no_chain', chain: [] });
  });

  it('tags a forged event for a bound device device_key_mismatch, and not the device’s own', async () => {
    const key = deviceKey();
    expect((await send('/devices/dev-ev/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);
    expect(await batchTags('dev-ev', key)).not.toContain('device_key_mismatch');
    expect(await batchTags('dev-ev', null)).toContain('device_key_mismatch');
    expect(await batchTags('dev-ev', deviceKey())).toContain('device_key_mismatch');
    // Signed by the right key over another body: the signature does not verify.
    const text = JSON.stringify({ events: [{ event: 'transfer', properties: { device_id: 'dev-ev', amount: 1 } }] });
    const headers = signedHeaders(key, { method: 'POST', path: '/events/batch', body: text.replace('1', '1000') });
    const tampered = await server.post('/events/batch', text, { key: server.clientKey, headers });
    expect(tampered.body.results[0].insights.current_tags).toContain('device_key_mismatch');
    expect(tampered.body.results[0].insights.risk_score).toBeGreaterThanOrEqual(0.9);
    // A device that is not bound is not held to a key.
    expect(await batchTags('dev-never-bound', null)).not.toContain('device_key_mismatch');
  });

  it('verifies a batch signed over its JSON and sent gzipped, as the Android library sends it', async () => {
    const key = deviceKey();
    expect((await send('/devices/dev-gz/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);
    const text = JSON.stringify({ events: [{ event: 'transfer', properties: { device_id: 'dev-gz' } }] });
    const headers = { ...signedHeaders(key, { method: 'POST', path: '/events/batch', body: text }), 'content-encoding': 'gzip' };
    const res = await server.post('/events/batch', gzipSync(text), { key: server.clientKey, headers });
    expect(res.status).toBe(200);
    expect(res.body.results[0].insights.current_tags).not.toContain('device_key_mismatch');
  });

  it('refuses a forged deactivation or re-registration of a bound device; its own signed ones go through', async () => {
    const key = deviceKey();
    expect((await send('/devices/dev-mv/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);

    for (const signer of [null, deviceKey()]) {
      const deactivate = await send('/devices/dev-mv/deactivate', { reason: 'stolen, says the attacker' }, signer);
      expect(deactivate.status).toBe(403);
      expect(deactivate.body).toMatchObject({ code: 'device_key_mismatch', type: '/problems/device_key_mismatch' });
      expect((await send('/devices/dev-mv/register', { user_id: 'mallory' }, signer)).body.code).toBe('device_key_mismatch');
    }
    // Another key presented and signed by itself: still not the bound key.
    const other = deviceKey();
    expect((await send('/devices/dev-mv/register', { user_id: 'mallory', device_key: presented(other) }, other)).body.code).toBe('device_key_mismatch');
    // A signature of the right key, replayed a day and more later.
    const stale = await send('/devices/dev-mv/deactivate', { reason: 'old' }, key, { time: Math.floor(Date.now() / 1000) - 25 * 60 * 60 });
    expect(stale.body.code).toBe('device_key_mismatch');
    const registration = await server.get('/devices/dev-mv/registration', { key: server.clientKey });
    expect(registration.body).toMatchObject({ user_id: 'ana', status: 'active' });
    expect(await stored('dev-mv')).toMatchObject({ keyId: key.keyId });

    expect((await send('/devices/dev-mv/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);
    const own = await send('/devices/dev-mv/deactivate', { reason: 'lost phone' }, key);
    expect(own.status).toBe(200);
    expect(own.body.status).toBe('deactivated');
  });

  it("lets the operator's backend (write key) move a bound device without the device's signature", async () => {
    const key = deviceKey();
    expect((await send('/devices/dev-wk/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);
    const backendEvent = await server.post('/events', { event: 'transfer', properties: { device_id: 'dev-wk' } }, { key: server.writeKey });
    expect(backendEvent.body.current_tags).not.toContain('device_key_mismatch');
    expect((await send('/devices/dev-wk/deactivate', { reason: 'closed account' }, null, { apiKey: server.writeKey })).status).toBe(200);
  });

  it('binds the new key of a reinstalled app once the old binding is forgotten (vigil devices unbind)', async () => {
    const old = deviceKey();
    expect((await send('/devices/dev-re/register', { user_id: 'ana', device_key: presented(old) }, old)).status).toBe(200);
    const reinstalled = deviceKey();
    expect((await send('/devices/dev-re/register', { user_id: 'ana', device_key: presented(reinstalled) }, reinstalled)).body.code).toBe('device_key_mismatch');
    expect(await unbindKey(server.database.db, 'dev-re')).toBe(true);
    expect(await unbindKey(server.database.db, 'dev-re')).toBe(false);
    expect((await send('/devices/dev-re/register', { user_id: 'ana', device_key: presented(reinstalled) }, reinstalled)).status).toBe(200);
    expect(await batchTags('dev-re', reinstalled)).not.toContain('device_key_mismatch');
    expect(await batchTags('dev-re', old)).toContain('device_key_mismatch');
  });

  it('answers a warm device from the fact cache, and sees a binding made or forgotten since in the next batch', async () => {
    // Every Android batch names its device: a warm one must not cost its group commit a read.
    for (let i = 0; i < 3; i++) await batchTags('dev-warm', null);
    let before = await factCacheCommits(server);
    expect(await batchTags('dev-warm', null)).not.toContain('device_key_mismatch');
    expect((await factCacheCommits(server)).cached).toBe(before.cached + 1);

    // Bound after the cache learnt "not bound": held to the key from the next batch on.
    const key = deviceKey();
    expect((await send('/devices/dev-warm/register', { user_id: 'ana', device_key: presented(key) }, key)).status).toBe(200);
    expect(await batchTags('dev-warm', null)).toContain('device_key_mismatch');
    for (let i = 0; i < 3; i++) expect(await batchTags('dev-warm', key)).not.toContain('device_key_mismatch');

    // Forgotten behind the server's back (the CLI's unbind, another process): the check inside the write finds the
    // cached key gone, and the batch reads again; the unsigned batch is not held.
    expect(await unbindKey(server.database.db, 'dev-warm')).toBe(true);
    before = await factCacheCommits(server);
    expect(await batchTags('dev-warm', null)).not.toContain('device_key_mismatch');
    expect((await factCacheCommits(server)).stale).toBe(before.stale + 1);
  });
});
