/** Rate limiting behind a small interface: in-memory today, shared (e.g. PostgreSQL or Redis) later. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
  remaining: number;
}

export interface RateLimiter {
  take(subject: string): RateLimitDecision;
}
