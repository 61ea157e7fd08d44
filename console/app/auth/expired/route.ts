import { type NextRequest, NextResponse } from 'next/server';
import { SESSION_COOKIE } from '../../../lib/shared/session-cookie';
import { safeNextPath } from '../../../lib/shared/next-path';
import { requestOrigin } from '../../../lib/shared/request-origin';

/** An expired or revoked session ends here: the stale cookie is dropped and the user signs in again. */
export function GET(request: NextRequest) {
  const next = safeNextPath(request.nextUrl.searchParams.get('next'));
  const login = `/login?expired=1${next === '/' ? '' : `&next=${encodeURIComponent(next)}`}`;
  const response = NextResponse.redirect(new URL(login, requestOrigin(request.headers, request.nextUrl.origin)), 303);
  response.cookies.delete(SESSION_COOKIE);
  return response;
}
