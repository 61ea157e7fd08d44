import { NextResponse, type NextRequest } from 'next/server';
import { requestOrigin } from './lib/shared/request-origin';
import { SESSION_COOKIE } from './lib/shared/session-cookie';

/**
 * Sends visitors without a session cookie to sign-in before anything renders, and tells the pages their own path
 * (x-vigil-path) so an expired session can come back to it. This is routing, not security: every API call is
 * authorized by the Vigil server with the session token.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const here = `${pathname}${search}`;
  if (!request.cookies.get(SESSION_COOKIE)) {
    const login = here === '/' ? '/login' : `/login?next=${encodeURIComponent(here)}`;
    return NextResponse.redirect(new URL(login, requestOrigin(request.headers, request.nextUrl.origin)));
  }
  const forwarded = new Headers(request.headers);
  forwarded.set('x-vigil-path', here);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = {
  // Everything but sign-in, the expiry route and Next's own files.
  matcher: ['/((?!login|auth/|_next/|favicon\\.ico|icon\\.svg).*)'],
};
