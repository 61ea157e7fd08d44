import type { RateLimiter } from './interface.js';

/** Used when VIGIL_RATE_LIMIT_RPS=0: every request is allowed. */
export const noopRateLimiter: RateLimiter = {
  take: () => ({ allowed: true, retryAfterSeconds: 0, remaining: Number.POSITIVE_INFINITY }),
};
