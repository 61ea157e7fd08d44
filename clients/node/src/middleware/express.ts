import type { VigilContext } from '../context.js';
import { VigilError } from '../core/errors.js';
import { reportError } from '../core/report.js';
import type { NodeLikeRequest } from '../node/request-info.js';
import { beginRequest, type MiddlewareOptions } from './auto-track.js';
import type { ResolvedCoreOptions } from '../core/options.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** This request's Vigil context, set by the Vigil middleware. */
      vigil: import('../context.js').VigilContext;
    }
  }
}

/** The parts of Express's (and Node's) response the middleware uses. */
export interface ResponseLike {
  statusCode: number;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

export type ExpressRequestLike = NodeLikeRequest & { vigil?: VigilContext };

export type ExpressMiddleware = (request: ExpressRequestLike, response: ResponseLike, next: (error?: unknown) => void) => void;

/**
 * Express middleware: sets `req.vigil` to a context built from the request and tracks
 * the requests matched by eventPaths when their response is done.
 */
export function expressMiddleware(
  root: VigilContext,
  options: MiddlewareOptions<ExpressRequestLike>,
  coreOptions: Pick<ResolvedCoreOptions, 'onError'>,
): ExpressMiddleware {
  return function vigilMiddleware(request, response, next) {
    try {
      const path = pathOnly(request.originalUrl ?? request.url);
      const { context, finish } = beginRequest(root, request, (req) => req.vigil, root.withRequest(request), request.method, path, options);
      request.vigil = context;
      if (finish !== undefined) {
        // 'close' also covers clients that hang up before the response is complete.
        const done = (): void => finish(response.statusCode);
        response.once('finish', done);
        response.once('close', done);
      }
    } catch (cause) {
      reportError(coreOptions, new VigilError('invalid_event', 'Vigil middleware could not read the request', { cause }));
    }
    next();
  };
}

function pathOnly(url: string | undefined): string | undefined {
  return url?.split(/[?#]/, 1)[0];
}
