'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { TIME_ZONE_COOKIE } from '../lib/shared/time-zone-cookie';

/**
 * Tells the server the browser's time zone once: when the cookie is missing or stale, it is set and the page is
 * rendered again with local times. Without JavaScript times stay in UTC, and say so.
 */
export function TimeZoneCookie() {
  const router = useRouter();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const stored = document.cookie
      .split('; ')
      .find((c) => c.startsWith(`${TIME_ZONE_COOKIE}=`))
      ?.slice(TIME_ZONE_COOKIE.length + 1);
    // IANA names are letters, digits, / _ + -: safe in a cookie as they are.
    if (!zone || zone === stored || !/^[A-Za-z0-9_/+-]{1,64}$/.test(zone)) return;
    document.cookie = `${TIME_ZONE_COOKIE}=${zone}; path=/; max-age=31536000; samesite=lax`;
    router.refresh();
  }, [router]);
  return null;
}
