import { describe, expect, it } from 'vitest';
import { firstPage, href, nextPage, pageParams, readPage } from './paging';

describe('cursor paging in the URL', () => {
  it('walks forward with an address that does not grow', () => {
    const one = readPage({});
    expect(one).toEqual({ after: null, page: 1, size: 50 });
    let state = one;
    const lengths: number[] = [];
    for (let i = 0; i < 50; i++) {
      state = nextPage(state, `cursor${String(i).padStart(3, '0')}`);
      lengths.push(href('/devices', pageParams(state)).length);
    }
    expect(state.page).toBe(51);
    expect(readPage(pageParams(state))).toEqual(state);
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
    expect(firstPage(state)).toEqual(one);
  });

  it('keeps a chosen page size and ignores values that are not cursors, sizes or page numbers', () => {
    expect(pageParams(readPage({ size: '200' }))).toEqual({ size: '200' });
    expect(readPage({ size: '7' }).size).toBe(50);
    expect(readPage({ page: '9' })).toEqual({ after: null, page: 1, size: 50 });
    expect(readPage({ after: 'c2', page: '-3' }).page).toBe(2);
    expect(readPage({ after: 'a b' }).after).toBeNull();
  });

  it('builds addresses without empty values', () => {
    expect(href('/devices', { role: 'teller', branch: undefined, user: '' })).toBe('/devices?role=teller');
    expect(href('/devices', {})).toBe('/devices');
  });
});
