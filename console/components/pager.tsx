import Link from 'next/link';
import { formatCount } from '../lib/shared/format';
import { firstPage, href, nextPage, pageParams, type PageState } from '../lib/shared/paging';
import { BackButton } from './back-button';

export function Pager({
  path,
  filters,
  state,
  endCursor,
  hasNext,
  total,
  shown,
  noun,
}: {
  path: string;
  filters: Record<string, string | undefined>;
  state: PageState;
  endCursor: string | null;
  hasNext: boolean;
  total: number;
  shown: number;
  noun: string;
}) {
  const start = shown === 0 ? 0 : (state.page - 1) * state.size + 1;
  const pages = Math.max(1, Math.ceil(total / state.size));
  const next = hasNext && endCursor ? nextPage(state, endCursor) : null;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted" data-testid="pager-summary">
        {shown === 0 ? `No ${noun}` : `${formatCount(start)}–${formatCount(start + shown - 1)} of ${formatCount(total)} ${noun}`} · page{' '}
        {formatCount(state.page)} of {formatCount(pages)}
      </span>
      <span className="links">
        {state.after && (
          <>
            <Link className="btn btn-ghost btn-small" href={href(path, { ...filters, ...pageParams(firstPage(state)) })}>
              ⇤ First page
            </Link>
            <BackButton label="← Previous" />
          </>
        )}
        {next && (
          <Link className="btn btn-ghost btn-small" href={href(path, { ...filters, ...pageParams(next) })} rel="next">
            Next →
          </Link>
        )}
      </span>
    </nav>
  );
}
