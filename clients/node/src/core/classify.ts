import { VigilError } from './errors.js';
import { parseRetryAfter } from './retry-after.js';
import type { HttpResponse } from './transport.js';
import type { Problem } from './wire.js';

/**
 * What to do with a response. Expected outcomes are data: the sender switches on `kind`.
 * - success: 2xx
 * - retry: 408, 429, 5xx (and network failures); `retryAfterMs` when the service said how long
 * - shrink: 413, the batch is too large and must be split
 * - drop: any other 4xx (or 1xx/3xx), retrying would give the same answer
 */
export type Classification =
  | { kind: 'success' }
  | { kind: 'retry'; error: VigilError; retryAfterMs: number | undefined }
  | { kind: 'shrink'; error: VigilError }
  | { kind: 'drop'; error: VigilError };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function classifyResponse(response: HttpResponse, nowMs: number): Classification {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'success' };
  const problem = parseProblem(response.body);
  const error = new VigilError('http', describe(status, problem), { status, problem });
  if (isRetryableStatus(status)) {
    return { kind: 'retry', error, retryAfterMs: parseRetryAfter(response.header('retry-after'), nowMs) };
  }
  if (status === 413) return { kind: 'shrink', error };
  return { kind: 'drop', error };
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
