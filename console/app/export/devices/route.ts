import type { NextRequest } from 'next/server';
import { apiUrl } from '../../../lib/server/config';
import { exportQuery, readDeviceValues } from '../../../lib/shared/device-query';
import { requestOrigin } from '../../../lib/shared/request-origin';
import { SESSION_COOKIE } from '../../../lib/shared/session-cookie';

/**
 * The devices page's CSV download: the same filter as the page, asked of Vigil's `GET /api/devices/export` with the
 * supervisor's session token added here (it never reaches the browser's JavaScript), and streamed through as it
 * comes, so a large export holds no more than a chunk in this process.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const origin = requestOrigin(request.headers, request.nextUrl.origin);
  const token = request.cookies.get(SESSION_COOKIE)?.value;
  if (!token) return Response.redirect(new URL('/login?next=/devices', origin), 303);
  const values = readDeviceValues(Object.fromEntries(request.nextUrl.searchParams));
  let upstream: Response;
  try {
    upstream = await fetch(`${apiUrl()}/api/devices/export?${exportQuery(values)}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/csv' },
      cache: 'no-store',
      signal: request.signal,
    });
  } catch {
    return new Response('The Vigil API cannot be reached; try again shortly.\n', {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' },
    });
  }
  if (upstream.status === 401) return Response.redirect(new URL('/auth/expired?next=/devices', origin), 303);
  if (!upstream.ok || !upstream.body) {
    const problem = (await upstream.json().catch(() => null)) as { detail?: string; title?: string } | null;
    const message = problem?.detail ?? problem?.title ?? `HTTP ${upstream.status}`;
    return new Response(`The export was refused: ${message}\n`, { status: upstream.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(upstream.body, {
    headers: {
      'content-type': upstream.headers.get('content-type') ?? 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="vigil-devices-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
