import { describe, expect, it } from 'vitest';
import { FIRST, href, nextPage, pageParams, previousPage, readPage } from './paging';

describe('cursor paging in the URL', () => {
  it('walks forward and back through the trail of cursors', () => {
    const one = readPage({});
    expect(one).toEqual({ after: null, trail: [] });
    const two = nextPage(one, 'c1');
    expect(two).toEqual({ after: 'c1', trail: [FIRST] });
    const three = nextPage(two, 'c2');
    expect(pageParams(three)).toEqual({ after: 'c2', trail: 'first.c1' });
    expect(readPage(pageParams(three))).toEqual(three);
    expect(previousPage(three)).toEqual(two);
    expect(previousPage(two)).toEqual(one);
    expect(previousPage(one)).toBeNull();
  });

  it('ignores a trail without a cursor and values that are not cursors', () => {
    expect(readPage({ trail: 'first.c1' })).toEqual({ after: null, trail: [] });
    expect(readPage({ after: 'c2', trail: 'first.<script>.c1' })).toEqual({ after: 'c2', trail: ['first', 'c1'] });
    expect(readPage({ after: 'a b' })).toEqual({ after: null, trail: [] });
  });

  it('builds addresses without empty values', () => {
    expect(href('/devices', { role: 'teller', branch: undefined, user: '' })).toBe('/devices?role=teller');
    expect(href('/devices', {})).toBe('/devices');
  });
});
