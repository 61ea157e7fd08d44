import { describe, expect, it } from 'vitest';
import { VigilError } from './errors.js';
import { EventPaths } from './event-paths.js';

describe('EventPaths', () => {
  const paths = EventPaths.compile({
    post: { login: '/login', transfer: '/accounts/*/transfer', upload: '/files/**', profile: '/users/:id' },
    get: { statement: ['/accounts/:id/statement', '/statements/*'] },
    all: { health_probe: '/probe' },
  });

  it('matches literal paths by method', () => {
    expect(paths.match('POST', '/login')).toBe('login');
    expect(paths.match('post', '/login/')).toBe('login');
    expect(paths.match('GET', '/login')).toBeUndefined();
    expect(paths.match('POST', '/Login')).toBeUndefined();
  });

  it('* and :name match exactly one segment', () => {
    expect(paths.match('POST', '/accounts/42/transfer')).toBe('transfer');
    expect(paths.match('POST', '/accounts/42/x/transfer')).toBeUndefined();
    expect(paths.match('POST', '/accounts/transfer')).toBeUndefined();
    expect(paths.match('POST', '/users/7')).toBe('profile');
    expect(paths.match('POST', '/users/7/extra')).toBeUndefined();
  });

  it('** matches any number of segments', () => {
    expect(paths.match('POST', '/files')).toBe('upload');
    expect(paths.match('POST', '/files/a/b/c')).toBe('upload');
  });

  it('accepts several patterns per event and the "all" method', () => {
    expect(paths.match('GET', '/accounts/1/statement')).toBe('statement');
    expect(paths.match('GET', '/statements/2024')).toBe('statement');
    expect(paths.match('DELETE', '/probe')).toBe('health_probe');
  });

  it('refuses unknown methods and relative patterns', () => {
    expect(() => EventPaths.compile({ fetch: { x: '/x' } } as never)).toThrow(VigilError);
    expect(() => EventPaths.compile({ post: { x: 'login' } })).toThrow(/must start with/);
  });

  it('matches nothing when empty', () => {
    expect(EventPaths.none.match('POST', '/login')).toBeUndefined();
  });
});
