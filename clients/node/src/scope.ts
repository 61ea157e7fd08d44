/** Per-request bookkeeping shared by the contexts derived from one middleware-handled request. */
export class RequestScope {
  /** Event names tracked by the handler, so the middleware does not send the same event again. */
  readonly tracked = new Set<string>();
}

/** Symbol-keyed so the middleware can attach a scope without it being part of the public API. */
export const attachScope = Symbol('vigil.attachScope');
