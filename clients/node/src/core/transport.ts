/** One HTTP exchange, reduced to what the core needs so any client (fetch, undici, a test double) fits. */
export interface HttpRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  /** Aborted by the core when its own (clock-driven) timeout fires or the client is closed. */
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Header lookup, case-insensitive (as with the Fetch API's Headers). */
  header(name: string): string | null;
  body: string;
}

/**
 * Sends one request. Resolves with any HTTP status (classification is the core's job) and rejects
 * only when no response arrived: network failure or abort.
 */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
}
