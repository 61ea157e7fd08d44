import { describe, expect, it } from 'vitest';
import { deviceHref, deviceIdFrom } from './device-href';

describe('device page addresses', () => {
  it.each(['dev-1', '100%', '%41', '%E0%A4%A', 'a/b/../c', 'with space', 'ünï-設備', '.', '..', '...', '?x=1#y'])('%s survives the URL', (id) => {
    const url = new URL(deviceHref(id), 'http://console.test');
    expect(url.pathname.startsWith('/devices/')).toBe(true);
    // As Next hands the page its segment: still percent-encoded (query values decoded).
    expect(deviceIdFrom(url.pathname.slice('/devices/'.length), url.searchParams.get('id') ?? undefined)).toBe(id);
  });

  it('takes a hand-typed segment that is not valid percent-encoding as it is', () => {
    expect(deviceIdFrom('100%', undefined)).toBe('100%');
  });
});
