import type { VigilContext } from '../context.js';
import { VigilError } from '../core/errors.js';
import type { ResolvedCoreOptions } from '../core/options.js';
import { reportError } from '../core/report.js';
import type { FastifyLikeRequest } from '../node/request-info.js';
import { beginRequest, type MiddlewareOptions } from './auto-track.js';

export type FastifyRequestLike = FastifyLikeRequest & { vigil?: VigilContext | null };

/** The parts of a Fastify instance the plugin uses (methods, so Fastify's overloads fit). */
export interface FastifyInstanceLike {
  decorateRequest(property: string, value: unknown): unknown;
  addHook(name: string, hook: (request: never, reply: never, done: (error?: Error) => void) => void): unknown;
}

export type FastifyPlugin = ((instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void) & {
  [key: symbol]: unknown;
};

type Finish = (statusCode: number) => void;

/**
 * Fastify plugin: decorates each request with `request.vigil` and tracks the requests
 * matched by eventPaths in onResponse. Registered with skip-override (what `fastify-plugin`
 * does), so its hooks apply to the whole application rather than only inside its own scope.
 */
export function fastifyPlugin(
  root: VigilContext,
  options: MiddlewareOptions<FastifyRequestLike>,
  coreOptions: Pick<ResolvedCoreOptions, 'onError'>,
): FastifyPlugin {
  const finishers = new WeakMap<object, Finish>();
  const register = (instance: FastifyInstanceLike, _options: unknown, done: (error?: Error) => void): void => {
    instance.decorateRequest('vigil', null);
    instance.addHook('onRequest', ((request: FastifyRequestLike, _reply: unknown, next: () => void) => {
      try {
        const { context, finish } = beginRequest(
          root,
          request,
          (req) => req.vigil,
          root.withRequest(request),
          request.method,
          request.url.split(/[?#]/, 1)[0],
          options,
        );
        request.vigil = context;
        if (finish !== undefined) finishers.set(request, finish);
      } catch (cause) {
        reportError(coreOptions, new VigilError('invalid_event', 'Vigil plugin could not read the request', { cause }));
      }
      next();
    }) as never);
    instance.addHook('onResponse', ((request: FastifyRequestLike, reply: { statusCode: number }, next: () => void) => {
      try {
        finishers.get(request)?.(reply.statusCode);
      } catch (cause) {
        reportError(coreOptions, new VigilError('invalid_event', 'Vigil plugin could not track the request', { cause }));
      }
      next();
    }) as never);
    done();
  };
  return Object.assign(register, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: '@vigil/node',
  }) as FastifyPlugin;
}
