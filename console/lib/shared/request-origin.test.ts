import { describe, expect, it } from 'vitest';
import { requestOrigin } from './request-origin';

describe('the origin the browser used', () => {
  it('comes from the Host header, not from the bind address', () => {
    expect(requestOrigin(new Headers({ host: '127.0.0.1:3000' }), 'http://localhost:3000')).toBe('http://127.0.0.1:3000');
  });
  it('follows a proxy', () => {
    expect(
      requestOrigin(new Headers({ host: 'internal:3000', 'x-forwarded-host': 'vigil.example', 'x-forwarded-proto': 'https' }), 'http://localhost:3000'),
    ).toBe('https://vigil.example');
  });
});
