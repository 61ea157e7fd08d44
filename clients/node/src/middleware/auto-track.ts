import type { VigilContext } from '../context.js';
import { attachScope, RequestScope } from '../scope.js';
import type { JsonObject } from '../core/wire.js';

/** Options shared by the Express and Fastify integrations. */
export interface MiddlewareOptions<Req = unknown> {
  /**
   * The identity for auto-tracked events, read when the response is finished (so it can use what
   * your authentication set, e.g. `req => req.user?.id`). Default: the identity of `req.vigil`.
   */
  identify?: (request: Req) => string | undefined;
  /** Extra properties for auto-tracked events, read when the response is finished. */
  properties?: (request: Req) => JsonObject | undefined;
}

/**
 * Starts tracking one request: gives it its own context and, if the method and path match
 * eventPaths, returns a function to call once the response is done. That function sends the
 * matched event (with the response status) unless the handler already tracked an event of that
 * name through the request's context, so a login handler that awaits trackAsync('login') to
 * decide is not counted twice.
 */
export function beginRequest<Req>(
  root: VigilContext,
  request: Req,
  contextOf: (request: Req) => VigilContext | null | undefined,
  requestContext: VigilContext,
  method: string | undefined,
  path: string | undefined,
  options: MiddlewareOptions<Req>,
): { context: VigilContext; finish: ((statusCode: number) => void) | undefined } {
  const scope = new RequestScope();
  const context = requestContext[attachScope](scope);
  const event = root.eventFor(method, path);
  if (event === undefined) return { context, finish: undefined };
  let done = false;
  return {
    context,
    finish(statusCode: number) {
      if (done || scope.tracked.has(event)) return;
      done = true;
      // The handler may have replaced the request's context (e.g. after identify); use the latest.
      let current = contextOf(request) ?? context;
      const identity = options.identify?.(request);
      if (identity !== undefined && identity !== '') current = current.identify(identity);
      current.track(event, { ...options.properties?.(request), status_code: statusCode });
    },
  };
}
