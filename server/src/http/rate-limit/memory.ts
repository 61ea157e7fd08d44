import type { RateLimitDecision, RateLimiter } from './interface.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface TokenBucketOptions {
  ratePerSecond: number;
  burst: number;
  now?: () => number;
  /** Buckets kept before idle ones are dropped, so unbounded subjects cannot exhaust memory. */
  maxSubjects?: number;
}

/** A token bucket per subject (a key id), in this process's memory. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly maxSubjects: number;

  constructor(private readonly options: TokenBucketOptions) {
    this.now = options.now ?? Date.now;
    this.maxSubjects = options.maxSubjects ?? 100_000;
  }

  take(subject: string): RateLimitDecision {
    const now = this.now();
    let bucket = this.buckets.get(subject);
    if (!bucket) {
      if (this.buckets.size >= this.maxSubjects) this.evictFull(now);
      bucket = { tokens: this.options.burst, updatedAt: now };
      this.buckets.set(subject, bucket);
    }
    const refill = ((now - bucket.updatedAt) / 1000) * this.options.ratePerSecond;
    bucket.tokens = Math.min(this.options.burst, bucket.tokens + refill);
    bucket.updatedAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.floor(bucket.tokens) };
    }
    const wait = (1 - bucket.tokens) / this.options.ratePerSecond;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)), remaining: 0 };
  }

  private evictFull(now: number): void {
    for (const [subject, bucket] of this.buckets) {
      const refilled = bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.options.ratePerSecond;
      if (refilled >= this.options.burst) this.buckets.delete(subject);
    }
    if (this.buckets.size >= this.maxSubjects) this.buckets.clear();
  }
}
