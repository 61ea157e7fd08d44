import { describe, expect, it } from 'vitest';
import { deviceHref, deviceIdFrom } from './device-href';

describe('device page addresses', () => {
  it.each(['dev-1', '100%', 'a/b', 'with space', 'ünï-設備', '.', '..', '...', '?x=1#y'])('%s survives the URL', (id) => {
    const url = new URL(deviceHref(id), 'http://console.test');
    // As Next hands the page its segment: decoded once.
    const segment = decodeURIComponent(url.pathname.slice('/devices/'.length));
    expect(url.pathname.startsWith('/devices/')).toBe(true);
    expect(deviceIdFrom(segment, url.searchParams.get('id') ?? undefined)).toBe(id);
  });
});
