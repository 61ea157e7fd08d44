import 'server-only';
import { cookies } from 'next/headers';
import { TIME_ZONE_COOKIE } from '../shared/time-zone-cookie';
import { validTimeZone } from '../shared/format';

/** The supervisor's time zone for server-rendered times: the browser's, from the cookie TimeZoneCookie sets. */
export async function timeZone(): Promise<string> {
  return validTimeZone((await cookies()).get(TIME_ZONE_COOKIE)?.value);
}
