import { type NextRequest, NextResponse } from 'next/server';
import { SESSION_COOKIE } from '../../../lib/shared/session-cookie';
import { safeNextPath } from '../../../lib/shared/next-path';

/** An expired or revoked session ends here: the stale cookie is dropped and the user signs in again. */
export function GET(request: NextRequest) {
  const next = safeNextPath(request.nextUrl.searchParams.get('next'));
  const url = request.nextUrl.clone();
  url.pathname = '/login';
  url.search = `?expired=1${next === '/' ? '' : `&next=${encodeURIComponent(next)}`}`;
  const response = NextResponse.redirect(url, 303);
  response.cookies.delete(SESSION_COOKIE);
  return response;
}
