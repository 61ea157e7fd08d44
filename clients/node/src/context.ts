import { isIP } from 'node:net';
import type { CloseResult } from './core/batch-sender.js';
import type { EventContext, VigilCore } from './core/core.js';
import { VigilError } from './core/errors.js';
import { asProperties } from './core/event.js';
import { EventPaths, type EventPathMap } from './core/event-paths.js';
import type { Insights } from './core/insights.js';
import { failOpenInsights } from './core/fail-open.js';
import { reportError } from './core/report.js';
import type { JsonObject } from './core/wire.js';
import { type RequestInfo, requestInfo, type SupportedRequest, type WithRequestOptions } from './node/request-info.js';
import type { TrustedProxies } from './node/trusted-proxies.js';
import { unmapIPv4 } from './node/trusted-proxies.js';
import { type ExpressMiddleware, expressMiddleware, type ExpressRequestLike } from './middleware/express.js';
import { type FastifyPlugin, fastifyPlugin, type FastifyRequestLike } from './middleware/fastify.js';
import type { MiddlewareOptions } from './middleware/auto-track.js';
import { attachScope, type RequestScope } from './scope.js';

interface Runtime {
  core: VigilCore;
  trusted: TrustedProxies;
  /** Warnings already given by this client (each is given once). */
  warned: Set<string>;
}

const NO_END_USER_IP =
  "[vigil] an event was sent without the end user's IP (no setIp, withRequest or ip_address): Vigil uses this " +
  "backend's own address, so all such users share one IP and one handprint. Given once per client.";

interface State {
  readonly identity: string | undefined;
  readonly ip: string | undefined;
  readonly request: Readonly<RequestInfo> | undefined;
  readonly paths: EventPaths;
  readonly scope: RequestScope | undefined;
}

export interface TrackAsyncOptions {
  /** Overrides the client's `timeout` for this call, in ms. */
  timeout?: number;
}

/**
 * An immutable tracking context. Every chain call returns a new context and leaves the receiver
 * untouched, so a context built for one request can never leak its identity or IP into another,
 * however requests interleave. All contexts derived from one client share its queue.
 */
export class VigilContext {
  /** @internal use `vigil(url, options)` */
  constructor(
    private readonly runtime: Runtime,
    private readonly state: State,
  ) {}

  /** spec: set_ip(ip). The client IP for events from this context; wins over the request's. */
  setIp(ip: string): VigilContext {
    const plain = typeof ip === 'string' ? unmapIPv4(ip.trim()) : '';
    if (isIP(plain) === 0) {
      reportError(this.runtime.core.options, new VigilError('invalid_event', `setIp: ${JSON.stringify(ip)} is not an IP address; ignored`));
      return this.derive({});
    }
    return this.derive({ ip: plain });
  }

  /** spec: identify(identity). The user the events are about (e-mail, user id, …). */
  identify(identity: string): VigilContext {
    if (typeof identity !== 'string' || identity === '') {
      reportError(this.runtime.core.options, new VigilError('invalid_event', 'identify: identity must be a non-empty string; ignored'));
      return this.derive({});
    }
    return this.derive({ identity });
  }

  /**
   * spec: event_paths(post = …). Which requests the Express/Fastify middleware tracks by itself.
   * Replaces any previous map. Throws VigilError('config') for an unknown method or bad pattern.
   */
  eventPaths(map: EventPathMap): VigilContext {
    return this.derive({ paths: EventPaths.compile(map) });
  }

  /**
   * spec: with_request(request). Takes IP (through the trusted proxies), user agent,
   * accept-language, X-Vigil-Browser-Token, X-Vigil-Device-Id, method and path from an
   * IncomingMessage, Express or Fastify request, or a Fetch API Request.
   */
  withRequest(request: SupportedRequest, options?: WithRequestOptions): VigilContext {
    try {
      return this.derive({ request: Object.freeze(requestInfo(request, this.runtime.trusted, options)) });
    } catch (cause) {
      reportError(this.runtime.core.options, new VigilError('invalid_event', 'withRequest: could not read the request; ignored', { cause }));
      return this.derive({});
    }
  }

  /** spec: track(event). Fire and forget: queued and sent in batches, retried, never throws. */
  track(name: string, properties?: JsonObject): void {
    const context = this.eventContext(name, properties);
    if (context instanceof VigilError) {
      reportError(this.runtime.core.options, context);
      return;
    }
    this.runtime.core.track(name, context);
  }

  /**
   * spec: track_async(event). Sends now and resolves with the insights; never rejects. When the
   * service is down, slow (past `timeout`), rate limiting or refuses the event, resolves with the
   * fail-open result (`insights.failOpen === true`) and reports the failure to onError.
   */
  trackAsync(name: string, properties?: JsonObject, options: TrackAsyncOptions = {}): Promise<Insights> {
    const context = this.eventContext(name, properties);
    if (context instanceof VigilError) {
      reportError(this.runtime.core.options, context);
      return Promise.resolve(failOpenInsights(this.runtime.core.options, context, { event: String(name), properties: {} }));
    }
    return this.runtime.core.trackAsync(name, context, options.timeout);
  }

  /** The event the configured eventPaths map gives this method and path, if any. */
  eventFor(method: string | undefined, path: string | undefined): string | undefined {
    return this.state.paths.match(method, path);
  }

  /** The properties this context adds to every event (for logging and tests). */
  get properties(): Readonly<JsonObject> {
    return { ...this.state.request, ...(this.state.ip === undefined ? {} : { ip_address: this.state.ip }) };
  }

  get identity(): string | undefined {
    return this.state.identity;
  }

  /** Events queued or in flight (shared by all contexts of one client). */
  get queued(): number {
    return this.runtime.core.queued;
  }

  /** Sends everything queued so far; resolves once it was delivered or given up. Never rejects. */
  flush(): Promise<void> {
    return this.runtime.core.flush();
  }

  /**
   * Graceful shutdown: stops accepting events, flushes, and resolves within `timeout` ms
   * (default: the client's closeTimeout). Never rejects.
   */
  close(options: { timeout?: number } = {}): Promise<CloseResult> {
    return this.runtime.core.close(options.timeout);
  }

  /**
   * Express middleware tracking the requests matched by this context's eventPaths and setting
   * `req.vigil` on every request: `app.use(client.eventPaths({...}).express())`.
   */
  express(options: MiddlewareOptions<ExpressRequestLike> = {}): ExpressMiddleware {
    return expressMiddleware(this, options, this.runtime.core.options);
  }

  /**
   * Fastify plugin doing the same (`request.vigil`, auto-tracking):
   * `app.register(client.eventPaths({...}).fastify())`.
   */
  fastify(options: MiddlewareOptions<FastifyRequestLike> = {}): FastifyPlugin {
    return fastifyPlugin(this, options, this.runtime.core.options);
  }

  /** @internal */
  [attachScope](scope: RequestScope): VigilContext {
    return this.derive({ scope });
  }

  private warnOnce(message: string): void {
    if (this.runtime.warned.has(message)) return;
    this.runtime.warned.add(message);
    try {
      this.runtime.core.options.logger.warn(message);
    } catch {
      // A logger's own failure must never reach the host app.
    }
  }

  private derive(change: Partial<State>): VigilContext {
    return new VigilContext(this.runtime, Object.freeze({ ...this.state, ...change }));
  }

  private eventContext(name: string, properties: JsonObject | undefined): EventContext | VigilError {
    const own = asProperties(properties);
    if (own === undefined) {
      return new VigilError('invalid_event', `properties of "${String(name)}" must be a plain object; event dropped`);
    }
    this.state.scope?.tracked.add(name);
    const merged = { ...this.properties, ...own };
    if (merged.ip_address === undefined && merged.ip === undefined) this.warnOnce(NO_END_USER_IP);
    return { identity: this.state.identity, properties: merged };
  }
}

export function rootState(): State {
  return Object.freeze({
    identity: undefined,
    ip: undefined,
    request: undefined,
    paths: EventPaths.none,
    scope: undefined,
  });
}
