export { vigil, type VigilOptions } from './vigil.js';
export { VigilContext, type TrackAsyncOptions } from './context.js';
export { Insights } from './core/insights.js';
export { VigilError, type VigilErrorCode } from './core/errors.js';
export type { CloseResult } from './core/batch-sender.js';
export type { CoreOptions, FailOpen } from './core/options.js';
export type { Clock } from './core/clock.js';
export { systemClock } from './core/clock.js';
export type { HttpRequest, HttpResponse, Transport } from './core/transport.js';
export { fetchTransport } from './transport/fetch.js';
export type { EventPathMap, HttpMethodKey } from './core/event-paths.js';
export type {
  AttemptedEvent,
  Behavior,
  DeviceInfo,
  EventBody,
  InsightsData,
  JsonObject,
  Problem,
  RiskTag,
  ScoreContribution,
} from './core/wire.js';
export {
  BROWSER_TOKEN_HEADER,
  DEVICE_ID_HEADER,
  type FastifyLikeRequest,
  type FetchLikeRequest,
  type NodeLikeRequest,
  type RequestInfo,
  type SupportedRequest,
  type WithRequestOptions,
} from './node/request-info.js';
export type { MiddlewareOptions } from './middleware/auto-track.js';
export type { ExpressMiddleware, ExpressRequestLike, ResponseLike } from './middleware/express.js';
export type { FastifyInstanceLike, FastifyPlugin, FastifyRequestLike } from './middleware/fastify.js';
export { VERSION } from './version.js';
