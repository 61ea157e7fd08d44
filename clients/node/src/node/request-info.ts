import { clientIp } from './client-ip.js';
import type { TrustedProxies } from './trusted-proxies.js';

/** Header carrying the token produced by Vigil's browser library (becomes properties.browser_token). */
export const BROWSER_TOKEN_HEADER = 'x-vigil-browser-token';
/** Header carrying the caller's device id, e.g. from the Android library (becomes properties.device_id). */
export const DEVICE_ID_HEADER = 'x-vigil-device-id';

type HeaderValue = string | string[] | undefined;

/** Node's IncomingMessage and Express's Request (which extends it). */
export interface NodeLikeRequest {
  headers: Record<string, HeaderValue>;
  method?: string | undefined;
  url?: string | undefined;
  /** Express: the URL before routers stripped their mount path. */
  originalUrl?: string | undefined;
  socket?: { remoteAddress?: string | undefined } | null | undefined;
}

/** Fastify's request: the Node request is in `raw`. */
export interface FastifyLikeRequest {
  raw: NodeLikeRequest;
  headers: Record<string, HeaderValue>;
  method: string;
  url: string;
}

/** The Fetch API's Request (Next.js route handlers, Hono, undici, …). */
export interface FetchLikeRequest {
  headers: { get(name: string): string | null };
  method: string;
  url: string;
}

export type SupportedRequest = NodeLikeRequest | FastifyLikeRequest | FetchLikeRequest;

export interface WithRequestOptions {
  /**
   * The peer address when the request object does not carry one (a Fetch API Request has no
   * socket). Treated like a socket address: forwarding headers count only if it is a trusted proxy.
   */
  remoteAddress?: string;
}

/** What a request contributes to an event: magic properties plus the method and path. */
export interface RequestInfo {
  ip_address?: string;
  user_agent?: string;
  accept_language?: string;
  browser_token?: string;
  device_id?: string;
  request_method?: string;
  request_path?: string;
}

/**
 * Reads everything needed from the request at once, so the context keeps a small immutable
 * snapshot rather than a reference to a request object that the framework will reuse or mutate.
 */
export function requestInfo(request: SupportedRequest, trusted: TrustedProxies, options: WithRequestOptions = {}): RequestInfo {
  const view = viewOf(request);
  const header = (name: string): string | undefined => view.header(name);
  const ip = clientIp(
    options.remoteAddress ?? view.peer,
    {
      'cf-connecting-ip': header('cf-connecting-ip'),
      forwarded: header('forwarded'),
      'x-forwarded-for': header('x-forwarded-for'),
    },
    trusted,
  );
  const info: RequestInfo = {};
  assign(info, 'ip_address', ip);
  assign(info, 'user_agent', header('user-agent'));
  assign(info, 'accept_language', header('accept-language'));
  assign(info, 'browser_token', header(BROWSER_TOKEN_HEADER));
  assign(info, 'device_id', header(DEVICE_ID_HEADER));
  assign(info, 'request_method', view.method?.toUpperCase());
  assign(info, 'request_path', view.path);
  return info;
}

interface RequestView {
  header(name: string): string | undefined;
  peer: string | undefined;
  method: string | undefined;
  path: string | undefined;
}

function viewOf(request: SupportedRequest): RequestView {
  if (isFetchRequest(request)) {
    return {
      header: (name) => nonEmpty(request.headers.get(name)),
      peer: undefined,
      method: request.method,
      path: pathOf(request.url),
    };
  }
  if (isFastifyRequest(request)) {
    return {
      header: (name) => joinHeader(request.headers[name]),
      peer: request.raw.socket?.remoteAddress,
      method: request.method,
      path: pathOf(request.url),
    };
  }
  return {
    header: (name) => joinHeader(request.headers[name]),
    peer: request.socket?.remoteAddress,
    method: request.method,
    path: pathOf(request.originalUrl ?? request.url),
  };
}

export function isFetchRequest(request: SupportedRequest): request is FetchLikeRequest {
  return typeof (request.headers as { get?: unknown }).get === 'function';
}

export function isFastifyRequest(request: SupportedRequest): request is FastifyLikeRequest {
  const raw = (request as { raw?: unknown }).raw;
  return typeof raw === 'object' && raw !== null && 'headers' in raw;
}

/** "/a/b?x=1" or "https://h/a/b?x=1" → "/a/b". */
export function pathOf(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  // Origin-form (the usual case) is taken literally: parsing "//x/y" as a URL would make x a host.
  if (url.startsWith('/')) return url.split(/[?#]/, 1)[0];
  try {
    return new URL(url, 'http://vigil.invalid').pathname;
  } catch {
    return undefined;
  }
}

function joinHeader(value: HeaderValue): string | undefined {
  return nonEmpty(Array.isArray(value) ? value.join(', ') : value);
}

function nonEmpty(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function assign(info: RequestInfo, key: keyof RequestInfo, value: string | undefined): void {
  if (value !== undefined) info[key] = value;
}
