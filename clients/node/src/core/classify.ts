import { classifyStatus, parseRetryAfter } from '@vigil/client-core';
import { VigilError } from './errors.js';
import type { HttpResponse } from './transport.js';
import type { Problem } from './wire.js';

/**
 * What to do with a response, by the shared client policy (clients/POLICY.md). Expected outcomes are
 * data: the sender switches on `kind`.
 * - success: 2xx
 * - retry: 408, 429, 5xx (and network failures); `retryAfterMs` when the service said how long
 * - shrink: 413, the batch is too large and must be split
 * - drop: any other status, retrying would give the same answer
 */
export type Classification =
  | { kind: 'success' }
  | { kind: 'retry'; error: VigilError; retryAfterMs: number | undefined }
  | { kind: 'shrink'; error: VigilError }
  | { kind: 'drop'; error: VigilError };

/** @param retryAfterCapMs the longest Retry-After honoured (`maxRetryAfter`). */
export function classifyResponse(response: HttpResponse, nowMs: number, retryAfterCapMs: number): Classification {
  const { status } = response;
  const verdict = classifyStatus(status);
  if (verdict === 'done') return { kind: 'success' };
  const problem = parseProblem(response.body);
  const error = new VigilError('http', describe(status, problem), { status, problem });
  if (verdict === 'retry') {
    const retryAfterMs = parseRetryAfter(response.header('retry-after'), nowMs, retryAfterCapMs);
    return { kind: 'retry', error, retryAfterMs: retryAfterMs ?? undefined };
  }
  return { kind: verdict, error };
}

export function parseProblem(body: string): Problem | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Problem) : undefined;
  } catch {
    return undefined;
  }
}

function describe(status: number, problem: Problem | undefined): string {
  const detail = problem?.detail ?? problem?.title;
  return `Vigil answered ${status}${detail ? `: ${detail}` : ''}`;
}
