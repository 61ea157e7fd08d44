import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('where sign-in returns to', () => {
  it('keeps paths on this console', () => {
    expect(safeNextPath('/devices?role=teller')).toBe('/devices?role=teller');
  });

  it('refuses other sites and loops back to sign-in', () => {
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil.example', 'devices', '/login?next=/', '/auth/expired', null, 42]) {
      expect(safeNextPath(bad)).toBe('/');
    }
  });
});
