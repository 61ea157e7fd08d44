import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pathOf, requestInfo } from './request-info.js';
import { trustedProxies } from './trusted-proxies.js';

const trusted = trustedProxies(['loopback']);

const headers = {
  'user-agent': 'Mozilla/5.0 test',
  'accept-language': 'fr-CH, fr;q=0.9',
  'x-vigil-browser-token': 'btok_1',
  'x-vigil-device-id': 'dev_1',
  'x-forwarded-for': '203.0.113.9',
};

const expected = {
  ip_address: '203.0.113.9',
  user_agent: 'Mozilla/5.0 test',
  accept_language: 'fr-CH, fr;q=0.9',
  browser_token: 'btok_1',
  device_id: 'dev_1',
  request_method: 'POST',
  request_path: '/accounts/7/transfer',
};

function incomingMessage(remoteAddress: string): IncomingMessage {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
  const message = new IncomingMessage(socket);
  message.method = 'POST';
  message.url = '/accounts/7/transfer?x=1';
  message.headers = { ...headers };
  return message;
}

describe('requestInfo', () => {
  it("reads Node's IncomingMessage", () => {
    expect(requestInfo(incomingMessage('127.0.0.1'), trusted)).toEqual(expected);
  });

  it('uses the socket address when the peer is not trusted', () => {
    expect(requestInfo(incomingMessage('198.51.100.1'), trusted).ip_address).toBe('198.51.100.1');
  });

  it("prefers Express's originalUrl (routers strip their mount path from url)", () => {
    const req = Object.assign(incomingMessage('127.0.0.1'), { originalUrl: '/api/accounts/7/transfer', url: '/accounts/7/transfer' });
    expect(requestInfo(req, trusted).request_path).toBe('/api/accounts/7/transfer');
  });

  it('reads a Fastify-shaped request through its raw IncomingMessage', () => {
    const raw = incomingMessage('127.0.0.1');
    expect(requestInfo({ raw, headers: raw.headers, method: 'POST', url: '/accounts/7/transfer?y=2' }, trusted)).toEqual(expected);
  });

  it('reads a Fetch API Request, with the peer address given explicitly', () => {
    const request = new Request('https://bank.example/accounts/7/transfer?z=3', { method: 'POST', headers });
    expect(requestInfo(request, trusted, { remoteAddress: '127.0.0.1' })).toEqual(expected);
    // No socket and no remoteAddress: forwarding headers cannot be vouched for.
    expect(requestInfo(request, trusted).ip_address).toBeUndefined();
  });

  it('leaves absent headers out and joins repeated ones', () => {
    const req = { headers: { 'accept-language': ['en', 'de'], 'user-agent': '  ' }, method: 'get', url: '/', socket: { remoteAddress: '198.51.100.2' } };
    expect(requestInfo(req, trusted)).toEqual({
      ip_address: '198.51.100.2',
      accept_language: 'en, de',
      request_method: 'GET',
      request_path: '/',
    });
  });
});

describe('pathOf', () => {
  it('strips query and fragment and keeps origin-form paths literal', () => {
    expect(pathOf('/a/b?c=d#e')).toBe('/a/b');
    expect(pathOf('//evil.example/x')).toBe('//evil.example/x');
    expect(pathOf('https://h.example/p/q?r')).toBe('/p/q');
    expect(pathOf(undefined)).toBeUndefined();
  });
});
