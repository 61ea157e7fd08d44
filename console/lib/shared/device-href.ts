/**
 * The address of a device's page for any device id. The id is one encoded path segment, except `.` and `..`:
 * browsers resolve those segments (even percent-encoded) before the request is sent, so such an id travels
 * in the query instead (`/devices/~?id=..`), which the page reads first.
 */
export function deviceHref(id: string): string {
  return id === '.' || id === '..' ? `/devices/~?id=${encodeURIComponent(id)}` : `/devices/${encodeURIComponent(id)}`;
}

/**
 * The device id of a device page: the query's `id` when given (Next has decoded query values), else the path
 * segment, which Next hands over still percent-encoded: it is decoded exactly once here. A segment that is not
 * valid percent-encoding (typed by hand: `/devices/100%`) is taken as it is rather than failing the page.
 */
export function deviceIdFrom(segment: string, query: string | string[] | undefined): string {
  if (typeof query === 'string' && query !== '') return query;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
