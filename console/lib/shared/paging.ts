/**
 * Forward-only cursor paging that still offers "Previous": the URL keeps the trail of earlier `after` cursors
 * (`first` for page one), so every page is a shareable address and Back works as well.
 */
export const FIRST = 'first';

export interface PageState {
  after: string | null;
  trail: string[];
}

const cursorish = /^[A-Za-z0-9_\-=+/]{1,512}$/;

export function readPage(params: Record<string, string | string[] | undefined>): PageState {
  const after = typeof params.after === 'string' && cursorish.test(params.after) ? params.after : null;
  const trail = typeof params.trail === 'string' && after ? params.trail.split('.').filter((c) => c === FIRST || cursorish.test(c)).slice(-200) : [];
  return { after, trail };
}

export function nextPage(state: PageState, endCursor: string): PageState {
  return { after: endCursor, trail: [...state.trail, state.after ?? FIRST] };
}

export function previousPage(state: PageState): PageState | null {
  if (!state.after) return null;
  const back = state.trail.at(-1);
  if (!back || back === FIRST) return { after: null, trail: [] };
  return { after: back, trail: state.trail.slice(0, -1) };
}

export function pageParams(state: PageState): Record<string, string> {
  if (!state.after) return {};
  return { after: state.after, ...(state.trail.length ? { trail: state.trail.join('.') } : {}) };
}

/** `path?query` from the given values, leaving out empty ones. */
export function href(path: string, values: Record<string, string | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
