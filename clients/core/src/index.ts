/**
 * @vigil/client-core — the delivery policy shared by Vigil's browser and Node libraries (and mirrored by Android's
 * Backoff.kt): what a response means, how long to wait, how to batch. Runtime-neutral: no DOM, no Node APIs, time
 * and randomness passed in. Importing it runs nothing.
 */
export { EVENTS_BATCH, FLUSH_INTERVAL_MS, PAGE_BATCH, QUEUE_BOUND, RETRY } from './policy.js';
export { classifyStatus, isRetryableStatus, type Verdict } from './classify.js';
export { parseRetryAfter } from './retry-after.js';
export { backoffDelay, retryDelay, type BackoffPolicy } from './backoff.js';
export { batchCount, growBatch, shrinkBatch, utf8Bytes, type BatchLimits } from './batch.js';
export { decide, type Attempt, type Decision } from './decide.js';
export { readPolicyCases, type PolicyCase } from './cases.js';
