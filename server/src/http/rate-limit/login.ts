import { setTimeout as sleep } from 'node:timers/promises';
import type { RateLimiter } from './interface.js';
import { MemoryRateLimiter } from './memory.js';

/**
 * Sign-in guessing limits. Refusals count per client address and per address and username, so a guesser elsewhere
 * can never lock an account out of sign-in; per username alone the answers only slow down, which costs an attacker
 * spread over many addresses time without handing them a way to deny the real user.
 */
export interface LoginLimiters {
  address: RateLimiter;
  addressUser: RateLimiter;
  /** Never refuses: past it, each answer for that username waits `slowdownMs` first. */
  user: RateLimiter;
  slowdownMs: number;
}

export type LoginDecision = { allowed: false; retryAfterSeconds: number } | { allowed: true; delayMs: number };

/** Per address: `perMinute` (a burst of as many); per address and username: half as many, at least one. */
export function loginLimiters(perMinute: number, slowdownMs = 1000): LoginLimiters {
  const bucket = (n: number) => new MemoryRateLimiter({ ratePerSecond: n / 60, burst: n });
  return { address: bucket(perMinute), addressUser: bucket(Math.max(1, Math.ceil(perMinute / 2))), user: bucket(perMinute), slowdownMs };
}

export function decideLogin(limiters: LoginLimiters, address: string, username: string): LoginDecision {
  const user = username.toLowerCase();
  for (const [limiter, subject] of [
    [limiters.address, address],
    [limiters.addressUser, `${address} ${user}`],
  ] as const) {
    const decision = limiter.take(subject);
    if (!decision.allowed) return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds };
  }
  return { allowed: true, delayMs: limiters.user.take(user).allowed ? 0 : limiters.slowdownMs };
}

export const slowDown = (ms: number) => (ms > 0 ? sleep(ms) : Promise.resolve());
