import { VigilError } from '../../errors.js';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 500;

function bounded(n: number, max: number, field: string): number {
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new VigilError('validation_failed', `${field} must be between 1 and ${max}`, {
      errors: [{ path: field, message: `must be between 1 and ${max}` }],
    });
  }
  return n;
}

/** `first` must be 1..500; GraphQL types cannot say so, so it is checked here with the REST error code. */
export function pageSize(first: number | null | undefined, field = 'first'): number {
  return bounded(first ?? PAGE_DEFAULT, PAGE_MAX, field);
}

export function sublistSize(first: number | null | undefined, max: number, field = 'first'): number {
  return bounded(first ?? Math.min(20, max), max, field);
}

/** A Relay connection over one forward page; `totalCount` is resolved on demand from `filter`. */
export function connection<N, F>(edges: { cursor: string; node: N }[], nextCursor: string | null, after: string | null | undefined, filter: F) {
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: nextCursor !== null,
      hasPreviousPage: Boolean(after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: 0,
    filter,
  };
}
