import type { HttpResponse, Transport } from '../core/transport.js';

/**
 * The default transport: the platform's fetch (undici in Node 18+), which keeps connections alive
 * between batches. `fetchImpl` lets callers pass an instrumented or proxied fetch.
 */
export function fetchTransport(fetchImpl: typeof fetch = globalThis.fetch): Transport {
  return {
    async send(request): Promise<HttpResponse> {
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
      });
      const body = await response.text();
      return { status: response.status, header: (name) => response.headers.get(name), body };
    },
  };
}
