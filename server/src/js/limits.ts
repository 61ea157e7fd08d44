/** Limits of the /js endpoints (documented in SERVER_CONTRACT.md). */
export const JS_LIMITS = {
  /** POST /js/collect body. A full reading is ~3–6 KiB. */
  collectBodyBytes: 32 * 1024,
  /** POST /js/events body (also the browsers' keepalive limit). */
  eventsBodyBytes: 64 * 1024,
  eventsPerRequest: 50,
  components: 64,
  componentNameChars: 64,
  componentJsonChars: 4096,
  componentErrorChars: 500,
  deviceSignalsJsonChars: 8192,
  eventNameChars: 200,
  identityChars: 256,
  eventIdChars: 128,
  propertyKeys: 200,
  propertyDepth: 5,
  /** Nesting of a component value (the value itself is level 1). */
  valueDepth: 16,
  /** Nesting of device_signals: they ride along in the properties of the page's events, one level down. */
  deviceSignalsDepth: 4,
} as const;

/** Suggested per-client-IP token buckets (rate per second, burst). 429 with Retry-After above them. */
export const JS_RATE_LIMITS = {
  collect: { ratePerSecond: 1, burst: 20 },
  events: { ratePerSecond: 10, burst: 100 },
} as const;
