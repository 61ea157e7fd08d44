/**
 * Framework-free server logic for the browser library (no HTTP framework, no database): handprint matching,
 * browser_token signing/verification and the /js request handling. See SERVER_CONTRACT.md.
 */
export { FEATURES, type FeatureDefinition, type FeatureTier, type FeatureValue, type HandprintFeatures } from "./handprint/features.js";
export { normalizeComponents, normalizeRenderer, type NormalizeContext } from "./handprint/normalize.js";
export { parseUserAgent, type UserAgentInfo } from "./handprint/user-agent.js";
export { compareFeatures, profileConfidence, DEFAULT_MIN_MATCH_BITS, type CompareOptions, type Comparison } from "./handprint/compare.js";
export { candidateKeys, handprintIdFor } from "./handprint/keys.js";
export { matchHandprint, mergeFeatures, type MatchOptions, type MatchResult, type StoredHandprint } from "./handprint/match.js";
export { resolveHandprint, createMemoryHandprintStore, type HandprintStore, type ResolveOptions } from "./handprint/service.js";
export { signBrowserToken, TOKEN_PREFIX, DEFAULT_TTL_SECONDS, MAX_TTL_SECONDS, type IssueInput, type SignOptions } from "./token/sign.js";
export { verifyBrowserToken, verifyBrowserTokenSignature, DEFAULT_MAX_USES, type VerifyOptions, type VerifyWithReplayOptions } from "./token/verify.js";
export { createMemoryReplayCounter } from "./token/replay.js";
export {
  BrowserTokenConfigError,
  type BrowserTokenClaims,
  type KeyRing,
  type ReplayCounter,
  type SigningKey,
  type VerifyFailure,
  type VerifyResult,
} from "./token/types.js";
export { JS_LIMITS, JS_RATE_LIMITS } from "./js-api/limits.js";
export { validationProblem, type FieldError, type Problem } from "./js-api/problem.js";
export { parseCollectRequest, parseEventsRequest, type BrowserEvent, type CollectRequest, type EventsRequest, type Parsed } from "./js-api/validate.js";
export { corsHeaders, isOriginAllowed, classifyJsAuthorization, type CorsPolicy, type JsCredential } from "./js-api/cors.js";
export { handleCollect, type CollectDeps, type CollectInput, type CollectOutcome, type CollectResponseBody } from "./js-api/collect.js";
export { prepareBrowserEvents, SERVER_OWNED_PROPERTIES, type EventsContext, type IngestEvent, type PreparedEvents } from "./js-api/events.js";
export { linkBrowserToken, type BrowserTokenLink } from "./js-api/backend-token.js";
