import 'server-only';
import { apiUrl } from './config';
import { ApiError, ApiUnavailableError, SessionExpiredError, type FieldError } from './errors';

const TIMEOUT_MS = 15_000;

interface Problem {
  code?: string;
  title?: string;
  detail?: string;
  errors?: FieldError[];
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${apiUrl()}${path}`, { ...init, cache: 'no-store', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ApiUnavailableError(`The Vigil API at ${apiUrl()} cannot be reached (${(error as Error).message})`);
  }
}

function headers(token: string | null, json: boolean): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json' };
  if (json) h['content-type'] = 'application/json';
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

/** Calls a REST route; a problem+json answer becomes an ApiError (401 with a token: SessionExpiredError). */
export async function rest<T>(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string | null; body?: unknown; forwardedFor?: string | null } = {},
): Promise<T> {
  const token = options.token ?? null;
  const extra: Record<string, string> = options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {};
  const response = await send(path, {
    method,
    headers: { ...headers(token, options.body !== undefined), ...extra },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let payload: unknown = null;
  try {
    payload = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiUnavailableError(`The Vigil API answered ${response.status} with a body that is not JSON`);
  }
  if (response.ok) return payload as T;
  const problem = (payload ?? {}) as Problem;
  if (response.status === 401 && token) throw new SessionExpiredError(problem.detail);
  throw new ApiError(
    problem.code ?? `http_${response.status}`,
    problem.detail ?? problem.title ?? `HTTP ${response.status}`,
    response.status,
    problem.errors ?? [],
  );
}

interface GraphQLError {
  message: string;
  extensions?: { code?: string; errors?: FieldError[] };
}

/** Runs one GraphQL operation with the supervisor's session; the first error is thrown as an ApiError. */
export async function graphql<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await send('/graphql', { method: 'POST', headers: headers(token, true), body: JSON.stringify({ query, variables }) });
  const text = await response.text();
  let payload: { data?: T | null; errors?: GraphQLError[]; code?: string; detail?: string };
  try {
    payload = JSON.parse(text);
  } catch {
    throw new ApiUnavailableError(`The Vigil API answered ${response.status} with a body that is not JSON`);
  }
  const first = payload.errors?.[0];
  const code = first?.extensions?.code ?? payload.code;
  if (response.status === 401 || code === 'unauthorized' || code === 'UNAUTHENTICATED') throw new SessionExpiredError(first?.message ?? payload.detail);
  if (first) throw new ApiError(code ?? 'graphql_error', first.message, response.status, first.extensions?.errors ?? []);
  if (!response.ok || !payload.data) throw new ApiError(code ?? `http_${response.status}`, payload.detail ?? `HTTP ${response.status}`, response.status);
  return payload.data;
}
