import { describe, expect, it } from 'vitest';
import { handprintIdFor } from './match/keys.js';
import { ipNetwork, legacyServerHandprint, primaryLanguage, ServerHandprints, serverHandprint as keyed } from './server-signals.js';

const SECRET = 'installation-a';
const serverHandprint = (signals: Parameters<typeof keyed>[0]) => keyed(signals, SECRET);

const base = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0', acceptLanguage: 'en-GB,en;q=0.9', ip: '203.0.113.7' };

describe('serverHandprint', () => {
  it('gives the same id for the same inputs', () => {
    expect(serverHandprint(base)).toBe(serverHandprint({ ...base }));
  });

  it('differs between installations: the id is keyed with the installation secret', () => {
    expect(keyed(base, 'installation-b')).not.toBe(serverHandprint(base));
    expect(serverHandprint(base)).not.toBe(legacyServerHandprint(base));
  });

  it('has the format of browser handprints', () => {
    const browser = handprintIdFor({ os: 'linux' }, SECRET);
    const format = /^hp_[a-z2-7]{26}$/;
    expect(browser).toMatch(format);
    expect(serverHandprint(base)).toMatch(format);
  });

  it('keeps the id within the same /24 and the same first language', () => {
    expect(serverHandprint({ ...base, ip: '203.0.113.200' })).toBe(serverHandprint(base));
    expect(serverHandprint({ ...base, acceptLanguage: 'en-GB;q=1' })).toBe(serverHandprint(base));
  });

  it('changes with the user agent, the language or the network', () => {
    expect(serverHandprint({ ...base, userAgent: 'curl/8' })).not.toBe(serverHandprint(base));
    expect(serverHandprint({ ...base, acceptLanguage: 'de-DE' })).not.toBe(serverHandprint(base));
    expect(serverHandprint({ ...base, ip: '198.51.100.7' })).not.toBe(serverHandprint(base));
  });
});

describe('ServerHandprints', () => {
  it('gives the ids serverHandprint gives, remembered or not, and past the point where it starts over', () => {
    const handprints = new ServerHandprints(SECRET);
    const inputs = Array.from({ length: 10_050 }, (_, i) => ({ ...base, ip: `10.${i >> 8}.${i & 255}.1` }));
    for (const round of [1, 2]) {
      for (const signals of inputs) expect(handprints.of(signals), `round ${round}`).toBe(serverHandprint(signals));
    }
    expect(new ServerHandprints('installation-b').of(base)).toBe(keyed(base, 'installation-b'));
  });
});

describe('ipNetwork', () => {
  it('takes /24 of IPv4 and /48 of IPv6', () => {
    expect(ipNetwork('10.1.2.3')).toBe('10.1.2.0/24');
    expect(ipNetwork('2001:db8:abcd:12::1')).toBe('2001:0db8:abcd::/48');
    expect(ipNetwork('::1')).toBe('0000:0000:0000::/48');
    expect(ipNetwork(null)).toBe('');
  });
});

describe('primaryLanguage', () => {
  it('keeps the first preference only', () => {
    expect(primaryLanguage('fr-CH, fr;q=0.9, en;q=0.8')).toBe('fr-ch');
    expect(primaryLanguage(null)).toBe('');
  });
});
