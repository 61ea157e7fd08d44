/**
 * Reference implementation of SERVER_CONTRACT.md on node:http, built only from the server's framework-free /js
 * code (server/src/js, server/src/handprint). The real Vigil server wires the same functions into its own routes,
 * database and rate limiter; this one keeps everything in memory so the browser library's integration tests can
 * run against real HTTP and real CORS.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
// The server's own /js code, imported from its source: this package ships only what runs in browsers.
import { toProblem } from "../../../server/src/errors.js";
import { createMemoryHandprintStore } from "../../../server/src/handprint/match/service.js";
import { linkBrowserToken } from "../../../server/src/handprint/token/backend-token.js";
import { createMemoryReplayCounter } from "../../../server/src/handprint/token/replay.js";
import type { KeyRing } from "../../../server/src/handprint/token/types.js";
import { handleCollect, type CollectResponseBody } from "../../../server/src/js/collect.js";
import { classifyJsAuthorization, corsHeaders, isOriginAllowed } from "../../../server/src/js/cors.js";
import { JS_LIMITS } from "../../../server/src/js/limits.js";
import { prepareBrowserEvents, type IngestEvent } from "../../../server/src/js/prepare-events.js";

export interface ReferenceServer {
  /** Base address, e.g. http://127.0.0.1:1234 (the library's url is base + "/js"). */
  base: string;
  ingested: IngestEvent[];
  collected: CollectResponseBody[];
  /** Answer the next `count` /js requests with this status (and Retry-After seconds, if given). */
  failNext(status: number, count: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

const dist = (name: string) => new URL(`../dist/${name}`, import.meta.url);

export async function startReferenceServer(options: { allowedOrigins: string[]; maxUses?: number }): Promise<ReferenceServer> {
  const script = readFileSync(dist("vigil.min.js"));
  const manifest = JSON.parse(readFileSync(dist("manifest.json"), "utf8")) as { versioned_file: string; integrity: string };
  const keys: KeyRing = { current: { kid: "ref1", secret: randomBytes(32) } };
  const store = createMemoryHandprintStore();
  const replay = createMemoryReplayCounter({ now: Date.now });
  const policy = { allowedOrigins: options.allowedOrigins };
  const ingested: IngestEvent[] = [];
  const collected: CollectResponseBody[] = [];
  let failures: { status: number; count: number; retryAfter?: number } | null = null;
  let nextEvent = 1;

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      send(res, 500, problem(500, "internal", String(error)), {});
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const origin = req.headers.origin;
    if (req.method === "GET" && (path === "/js" || path === "/js/")) {
      res.writeHead(200, {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "public, max-age=300",
        etag: `"${manifest.integrity}"`,
        link: `</js/${manifest.versioned_file}>; rel="canonical"`,
      });
      res.end(script);
      return;
    }
    if (req.method === "GET" && path === `/js/${manifest.versioned_file}`) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=31536000, immutable" });
      res.end(script);
      return;
    }
    if (path === "/js/collect" || path === "/js/events") {
      if (req.method === "OPTIONS") {
        const headers = corsHeaders(origin, policy, true);
        if (!headers) return send(res, 403, problem(403, "origin_not_allowed", `origin ${origin ?? "(none)"} is not allowed`), {});
        res.writeHead(204, headers).end();
        return;
      }
      if (req.method !== "POST") return send(res, 405, problem(405, "method_not_allowed", "use POST"), {});
      const cors = corsHeaders(origin, policy) ?? {};
      const credential = classifyJsAuthorization(req.headers.authorization);
      if (credential.kind === "write_key")
        return send(res, 403, problem(403, "write_key_not_allowed", "never put a write key in a page; use a client key"), cors);
      if (credential.kind === "malformed") return send(res, 401, problem(401, "invalid_key", "Authorization must be Bearer vigil_ck_…"), cors);
      if (!isOriginAllowed(origin, policy) && credential.kind !== "client_key") {
        return send(res, 403, problem(403, "origin_not_allowed", `origin ${origin ?? "(none)"} is not allowed`), cors);
      }
      if (!/^application\/json\b/i.test(req.headers["content-type"] ?? ""))
        return send(res, 415, problem(415, "unsupported_media_type", "send application/json"), cors);
      const limit = path === "/js/collect" ? JS_LIMITS.collectBodyBytes : JS_LIMITS.eventsBodyBytes;
      const raw = await readBody(req, limit);
      if (raw === null) return send(res, 413, problem(413, "payload_too_large", `body exceeds ${limit} bytes`), cors);
      if (failures && failures.count > 0) {
        failures.count--;
        const extra: Record<string, string> = failures.retryAfter !== undefined ? { "retry-after": String(failures.retryAfter) } : {};
        return send(res, failures.status, problem(failures.status, "unavailable", "injected failure"), { ...cors, ...extra });
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, problem(400, "invalid_json", "body is not valid JSON"), cors);
      }
      const userAgent = req.headers["user-agent"] ?? null;
      if (path === "/js/collect") {
        const outcome = await handleCollect({ body, origin: origin ?? null, userAgent }, { store, keys, salt: "reference-salt", now: Date.now, randomBytes });
        if (outcome.status !== 200) return send(res, 400, toProblem(outcome.error), cors);
        collected.push(outcome.body);
        return send(res, 200, outcome.body, cors);
      }
      const prepared = prepareBrowserEvents(body, { keys, now: Date.now, ip: req.socket.remoteAddress ?? null, userAgent });
      if (prepared.status !== 200) return send(res, 400, toProblem(prepared.error), cors);
      const results = prepared.items.map((item) => {
        if (!item.ok) return { status: 400, error: toProblem(item.error) };
        ingested.push(item.ingest);
        return { status: 200, event_id: `evt_${nextEvent++}` };
      });
      return send(res, 200, { results, ...(prepared.token_warning ? { warnings: [{ code: prepared.token_warning }] } : {}) }, cors);
    }
    if (req.method === "POST" && path === "/events") {
      // Stand-in for the backend's POST /events: only the browser_token link is modelled here.
      const event = JSON.parse((await readBody(req, 65536)) ?? "{}") as { event?: string; properties?: Record<string, unknown> };
      const props = event.properties ?? {};
      const link = await linkBrowserToken(props.browser_token, {
        keys,
        now: Date.now(),
        replay,
        ...(options.maxUses ? { maxUses: options.maxUses } : {}),
        callerDeviceId: typeof props.device_id === "string" ? props.device_id : null,
      });
      return send(
        res,
        200,
        {
          event_id: `evt_${nextEvent++}`,
          device_id: link.status === "linked" ? (props.device_id ?? link.device_id) : (props.device_id ?? null),
          handprint_id: link.status === "linked" ? link.handprint_id : null,
          warnings: link.status === "refused" ? [link.warning] : [],
        },
        {},
      );
    }
    send(res, 404, problem(404, "not_found", path), {});
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ingested,
    collected,
    failNext(status, count, retryAfter) {
      failures = { status, count, ...(retryAfter !== undefined ? { retryAfter } : {}) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function problem(status: number, code: string, detail: string) {
  return { type: "about:blank", status, code, title: code.replace(/_/g, " "), detail };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const type = status >= 400 ? "application/problem+json" : "application/json";
  res.writeHead(status, { "content-type": type, ...headers }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
