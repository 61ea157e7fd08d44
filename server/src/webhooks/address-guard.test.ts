import { describe, expect, it } from 'vitest';
import { isPublicAddress, refuseEndpoint } from './address-guard.js';

describe('webhook address guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1',
    '224.0.0.1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('accepts public %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.5/hook',
    'http://[fe80::1]/hook',
    'http://2130706433/hook',
  ])('refuses the endpoint %s without VIGIL_WEBHOOK_ALLOW_PRIVATE', async (url) => {
    expect(await refuseEndpoint(url, false)).toMatch(/private, loopback and link-local addresses are refused/);
    expect(await refuseEndpoint(url, true)).toBeNull();
  });

  it('refuses what is not http(s) or carries credentials, allowed or not', async () => {
    expect(await refuseEndpoint('ftp://example.com/x', true)).toMatch(/http or https/);
    expect(await refuseEndpoint('file:///etc/passwd', true)).toMatch(/http or https/);
    expect(await refuseEndpoint('https://user:pw@example.com/x', true)).toMatch(/credentials/);
    expect(await refuseEndpoint('not a url', true)).toMatch(/not a URL/);
  });
});
