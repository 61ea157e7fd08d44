import Link from 'next/link';
import { formatCount } from '../lib/shared/format';
import { href, nextPage, pageParams, previousPage, type PageState } from '../lib/shared/paging';

export function Pager({
  path,
  filters,
  state,
  endCursor,
  hasNext,
  total,
  shown,
  pageSize,
  noun,
}: {
  path: string;
  filters: Record<string, string | undefined>;
  state: PageState;
  endCursor: string | null;
  hasNext: boolean;
  total: number;
  shown: number;
  pageSize: number;
  noun: string;
}) {
  const page = state.after ? state.trail.length + 1 : 1;
  const start = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const previous = previousPage(state);
  const next = hasNext && endCursor ? nextPage(state, endCursor) : null;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted" data-testid="pager-summary">
        {shown === 0 ? `No ${noun}` : `${formatCount(start)}–${formatCount(start + shown - 1)} of ${formatCount(total)} ${noun}`} · page {page}
      </span>
      <span className="links">
        <Link className="btn btn-ghost btn-small" href={previous ? href(path, { ...filters, ...pageParams(previous) }) : '#'} aria-disabled={!previous} tabIndex={previous ? undefined : -1} rel="prev">
          ← Previous
        </Link>
        <Link className="btn btn-ghost btn-small" href={next ? href(path, { ...filters, ...pageParams(next) }) : '#'} aria-disabled={!next} tabIndex={next ? undefined : -1} rel="next">
          Next →
        </Link>
      </span>
    </nav>
  );
}
