/**
 * Whether an answer is the documented answer to a database fault: 503 with Retry-After and code `unavailable`,
 * as problem+json (REST) or as the first GraphQL error's `extensions.code`.
 */
export function isDocumentedUnavailable(response: Response, body: string): boolean {
  if (response.status !== 503 || !(Number(response.headers.get('retry-after')) > 0)) return false;
  try {
    const parsed = JSON.parse(body);
    const problem = response.headers.get('content-type')?.startsWith('application/problem+json');
    return (problem ? parsed.code : parsed.errors?.[0]?.extensions?.code) === 'unavailable';
  } catch {
    return false;
  }
}
