import type { FetchLike, ResponseLike } from "./types.js";

export type PostResult = { kind: "response"; status: number; retryAfter: string | null; body: unknown } | { kind: "network"; message: string };

/** POSTs JSON and reads a JSON answer; never throws (network failures and bad bodies are data). */
export async function postJson(fetch: FetchLike, url: string, body: unknown, options: { clientKey?: string; keepalive?: boolean } = {}): Promise<PostResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.clientKey) headers.authorization = `Bearer ${options.clientKey}`;
  let response: ResponseLike;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      credentials: "omit",
      mode: "cors",
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    return { kind: "network", message: error instanceof Error ? error.message : String(error) };
  }
  let parsed: unknown = null;
  try {
    const text = await response.text();
    parsed = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    parsed = null;
  }
  let retryAfter: string | null = null;
  try {
    retryAfter = response.headers.get("retry-after");
  } catch {
    retryAfter = null;
  }
  return { kind: "response", status: response.status, retryAfter, body: parsed };
}

/** The problem+json `detail`/`title`/`code`, or a generic message. */
export function problemMessage(body: unknown, status: number): { code: string; message: string } {
  const p = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const code = typeof p.code === "string" ? p.code : `http_${status}`;
  const message = typeof p.detail === "string" ? p.detail : typeof p.title === "string" ? p.title : `request failed with status ${status}`;
  return { code, message };
}
