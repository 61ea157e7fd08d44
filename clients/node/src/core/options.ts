import { EVENTS_BATCH, FLUSH_INTERVAL_MS, QUEUE_BOUND, RETRY } from '@vigil/client-core';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { VigilError } from './errors.js';
import type { Transport } from './transport.js';
import { fetchTransport } from '../transport/fetch.js';
import type { AttemptedEvent, InsightsData } from './wire.js';

/** What `trackAsync` resolves to when the service cannot answer in time. */
export type FailOpen = Partial<InsightsData> | ((error: VigilError, event: AttemptedEvent) => Partial<InsightsData>);

/**
 * Options understood by the runtime-neutral core. Every one has a default (see README); the delivery defaults
 * are the shared client policy's (clients/POLICY.md).
 */
export interface CoreOptions {
  /** trackAsync: milliseconds to wait for insights before returning the fail-open result. Default 2000. */
  timeout?: number;
  /** trackAsync: result when the service is down, slow, rate limiting or refusing. Default: risk 0, no tags. */
  failOpen?: FailOpen;
  /** Receives every failure; the library never throws them at you. Default: console.warn. */
  onError?: (error: VigilError) => void;
  /** Events per POST /events/batch (the service accepts at most 100). Default 100. */
  maxBatchSize?: number;
  /** Upper bound of a batch body in bytes (the service accepts at most 1 MiB). Default 1_000_000. */
  maxBatchBytes?: number;
  /** How long a non-full batch waits for company before it is sent, in ms. Default 1000. */
  flushInterval?: number;
  /** Events held in memory (queued or in flight); beyond this new events are dropped. Default 10_000. */
  maxQueueSize?: number;
  /** Answers with a retryable status (408, 429, 5xx) an event may get before it is given up; failures without an answer do not count. Default 20. */
  maxAttempts?: number;
  /** Step of the first retry in ms, doubled per consecutive failure, jittered to [½, 1] of the step. Default 1000. */
  minRetryDelay?: number;
  /** Cap of the exponential retry step in ms. Default 60_000. */
  maxRetryDelay?: number;
  /** Cap on how long a Retry-After header may pause sending, in ms. Default 300_000. */
  maxRetryAfter?: number;
  /** Timeout of one POST /events/batch request in ms. Default 10_000. */
  requestTimeout?: number;
  /** Default timeout of close() in ms. Default 10_000. */
  closeTimeout?: number;
  /** HTTP client. Default: the platform's fetch. */
  transport?: Transport;
  /** Time source and timers. Default: Date.now and setTimeout. */
  clock?: Clock;
  /** Uniform random numbers in [0, 1) for retry jitter. Default: Math.random. */
  random?: () => number;
  /** Generates idempotency keys (properties.event_id). Default: crypto.randomUUID. */
  newId?: () => string;
}

export interface ResolvedCoreOptions {
  endpoint: string;
  writeKey: string;
  timeout: number;
  failOpen: FailOpen | undefined;
  onError: (error: VigilError) => void;
  maxBatchSize: number;
  maxBatchBytes: number;
  flushInterval: number;
  maxQueueSize: number;
  maxAttempts: number;
  minRetryDelay: number;
  maxRetryDelay: number;
  maxRetryAfter: number;
  requestTimeout: number;
  closeTimeout: number;
  transport: Transport;
  clock: Clock;
  random: () => number;
  newId: () => string;
  userAgent: string;
}

/** The service's own limit on events per batch. */
export const SERVICE_MAX_BATCH = EVENTS_BATCH.maxEvents;

export function resolveCoreOptions(endpoint: string, writeKey: string, options: CoreOptions, userAgent: string): ResolvedCoreOptions {
  return {
    endpoint: endpoint.replace(/\/+$/, ''),
    writeKey,
    timeout: positive(options.timeout, 2000),
    failOpen: options.failOpen,
    onError: options.onError ?? defaultOnError,
    maxBatchSize: Math.min(SERVICE_MAX_BATCH, Math.floor(positive(options.maxBatchSize, SERVICE_MAX_BATCH))),
    maxBatchBytes: positive(options.maxBatchBytes, EVENTS_BATCH.maxBytes),
    flushInterval: nonNegative(options.flushInterval, FLUSH_INTERVAL_MS.node),
    maxQueueSize: Math.floor(positive(options.maxQueueSize, QUEUE_BOUND.node)),
    maxAttempts: Math.floor(positive(options.maxAttempts, RETRY.maxAttempts)),
    minRetryDelay: nonNegative(options.minRetryDelay, RETRY.baseDelayMs),
    maxRetryDelay: nonNegative(options.maxRetryDelay, RETRY.maxDelayMs),
    maxRetryAfter: nonNegative(options.maxRetryAfter, RETRY.retryAfterCapMs),
    requestTimeout: positive(options.requestTimeout, 10_000),
    closeTimeout: nonNegative(options.closeTimeout, 10_000),
    transport: options.transport ?? fetchTransport(),
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    newId: options.newId ?? (() => globalThis.crypto.randomUUID()),
    userAgent,
  };
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function defaultOnError(error: VigilError): void {
  const lost = error.dropped.length > 0 ? ` (${error.dropped.length} event(s) dropped)` : '';
  console.warn(`[vigil] ${error.code}: ${error.message}${lost}`);
}
