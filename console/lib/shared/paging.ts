/**
 * Forward cursor paging in the URL with a constant-size address: `after` (the cursor of the page before), `page`
 * (its number, for the "51–100 of 2,000" line) and `size`. There is no trail of earlier cursors: going back is the
 * browser's Back (a "Previous" button calls it when JavaScript is on) and "First page" is always a plain link.
 */
export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

export interface PageState {
  after: string | null;
  /** 1-based; 1 whenever there is no cursor. */
  page: number;
  size: number;
}

const cursorish = /^[A-Za-z0-9_\-=+/]{1,512}$/;

export function readPage(params: Record<string, string | string[] | undefined>): PageState {
  const after = typeof params.after === 'string' && cursorish.test(params.after) ? params.after : null;
  const number = Number(params.page);
  const page = after && Number.isInteger(number) && number > 1 && number < 1_000_000 ? number : after ? 2 : 1;
  const size = PAGE_SIZES.find((s) => String(s) === params.size) ?? DEFAULT_PAGE_SIZE;
  return { after, page, size };
}

export function nextPage(state: PageState, endCursor: string): PageState {
  return { after: endCursor, page: state.page + 1, size: state.size };
}

export const firstPage = (state: PageState): PageState => ({ after: null, page: 1, size: state.size });

export function pageParams(state: PageState): Record<string, string> {
  const params: Record<string, string> = state.size === DEFAULT_PAGE_SIZE ? {} : { size: String(state.size) };
  if (state.after) Object.assign(params, { after: state.after, page: String(state.page) });
  return params;
}

/** `path?query` from the given values, leaving out empty ones. */
export function href(path: string, values: Record<string, string | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
