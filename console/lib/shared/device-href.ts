/**
 * The address of a device's page for any device id. The id is one encoded path segment, except `.` and `..`:
 * browsers resolve those segments (even percent-encoded) before the request is sent, so such an id travels
 * in the query instead (`/devices/~?id=..`), which the page reads first.
 */
export function deviceHref(id: string): string {
  return id === '.' || id === '..' ? `/devices/~?id=${encodeURIComponent(id)}` : `/devices/${encodeURIComponent(id)}`;
}

/** The device id of a device page: the query's `id` when given, else the path segment (already decoded once). */
export function deviceIdFrom(segment: string, query: string | string[] | undefined): string {
  return typeof query === 'string' && query !== '' ? query : segment;
}
