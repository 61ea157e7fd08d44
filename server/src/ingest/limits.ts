/** Ingestion limits. Documented in the README and OpenAPI; change them here only. */
export const limits = {
  /** Largest POST /events body. */
  eventBodyBytes: 64 * 1024,
  /** Largest POST /events/batch body. */
  batchBodyBytes: 1024 * 1024,
  /** Most events in one batch. */
  batchMaxEvents: 100,
  eventNameMax: 200,
  identityMax: 256,
  /** Nesting of `properties`: the properties object itself is level 1. */
  propertiesMaxDepth: 5,
  /** Keys across every level of `properties`. */
  propertiesMaxKeys: 200,
  /** How far in the future `timestamp` may be (clock skew allowance). */
  futureSkewMs: 5 * 60 * 1000,
  /** Earliest accepted `timestamp`. */
  earliestTimestamp: Date.parse('2000-01-01T00:00:00Z'),
  idMax: 128,
  userAgentMax: 1024,
} as const;
