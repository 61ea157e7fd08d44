/** Holds the browser's IANA time zone (Intl), so pages rendered on the server show the supervisor's local times. */
export const TIME_ZONE_COOKIE = 'vigil_tz';
