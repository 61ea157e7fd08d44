import 'server-only';
import { headers } from 'next/headers';
import { ApiError } from './errors';

/**
 * Every mutation is a server action, and every server action calls this first. Next.js already refuses an action
 * whose Origin differs from the host, but lets one without Origin through; we refuse that too, and refuse
 * cross-site fetch metadata. With the SameSite=Lax cookie this closes cross-site request forgery.
 */
export async function assertSameOrigin(): Promise<void> {
  const h = await headers();
  const origin = h.get('origin');
  const host = h.get('x-forwarded-host')?.split(',')[0]?.trim() ?? h.get('host');
  const site = h.get('sec-fetch-site');
  let originHost: string | null = null;
  try {
    originHost = origin ? new URL(origin).host : null;
  } catch {
    originHost = null;
  }
  if (!originHost || !host || originHost !== host || (site !== null && site !== 'same-origin')) {
    throw new ApiError('csrf_refused', 'This request did not come from the console page; reload the page and try again', 403);
  }
}
