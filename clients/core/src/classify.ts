/**
 * What a response (or its absence) means for the events it carried:
 * - done: 2xx, the server answered for them
 * - retry: 408, 429, 5xx, or no answer at all; send the same events again later
 * - shrink: 413, the batch is too large and must be split
 * - drop: any other status; the server would give the same answer again
 */
export type Verdict = 'done' | 'retry' | 'shrink' | 'drop';

/** `status` is null when no answer came (network failure, timeout, aborted request). */
export function classifyStatus(status: number | null): Verdict {
  if (status === null) return 'retry';
  if (status >= 200 && status < 300) return 'done';
  if (status === 413) return 'shrink';
  if (isRetryableStatus(status)) return 'retry';
  return 'drop';
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
