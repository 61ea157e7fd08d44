import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';

describe.each(testDrivers())('e-mail and phone intelligence on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  const send = async (body: unknown) => {
    const res = await server.post('/events', body);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('describes an e-mail, when it was first seen and on how many devices', async () => {
    const first = await send({
      event: 'signup',
      properties: { email: 'Bob.Smith+x@GMail.com', device_id: `${driver}-d1`, timestamp: '2026-01-02T03:04:05.000Z' },
    });
    expect(first.email_intel).toEqual({
      address: 'Bob.Smith+x@GMail.com',
      valid: true,
      normalized: 'bobsmith@gmail.com',
      domain: 'gmail.com',
      disposable: false,
      free_provider: true,
      role_account: false,
      first_seen: '2026-01-02T03:04:05.000Z',
      devices_seen: 1,
    });
    expect(first.phone_intel).toBeNull();
    // Same mailbox written differently, on another device.
    const second = await send({ event: 'login', identity: 'bobsmith@gmail.com', properties: { device_id: `${driver}-d2` } });
    expect(second.email_intel).toMatchObject({ normalized: 'bobsmith@gmail.com', first_seen: '2026-01-02T03:04:05.000Z', devices_seen: 2 });
    // A late offline event moves first_seen back.
    const late = await send({ event: 'login', properties: { email: 'bobsmith@gmail.com', device_id: `${driver}-d1`, timestamp: '2025-12-31T00:00:00.000Z' } });
    expect(late.email_intel).toMatchObject({ first_seen: '2025-12-31T00:00:00.000Z', devices_seen: 2 });
  });

  it('flags disposable and invalid addresses', async () => {
    expect((await send({ event: 'signup', properties: { email: 'x@mailinator.com' } })).email_intel).toMatchObject({ disposable: true, valid: true });
    expect((await send({ event: 'signup', properties: { email: 'not-an-email' } })).email_intel).toMatchObject({
      valid: false,
      first_seen: null,
      devices_seen: 0,
    });
  });

  it('describes a phone number and how many identities used it', async () => {
    const a = await send({ event: 'signup', identity: `${driver}-ann`, properties: { phone: '+33 6 12 34 56 78' } });
    expect(a.phone_intel).toMatchObject({ valid: true, e164: '+33612345678', country: 'FR', line_type: 'mobile', identities_seen: 1 });
    expect(typeof a.phone_intel.first_seen).toBe('string');
    const b = await send({ event: 'signup', identity: `${driver}-ben`, properties: { phone: '06 12 34 56 78', phone_country: 'FR' } });
    expect(b.phone_intel).toMatchObject({ e164: '+33612345678', identities_seen: 2, first_seen: a.phone_intel.first_seen });
  });
});
