import { describe, expect, it } from 'vitest';
import { response } from '../../test/support/fake-transport.js';
import { classifyResponse } from './classify.js';

const now = 0;
const cap = 300_000;

describe('classifyResponse', () => {
  it.each([200, 201, 204])('%i is a success', (status) => {
    expect(classifyResponse(response(status), now, cap).kind).toBe('success');
  });

  it.each([408, 429, 500, 502, 503, 504])('%i is retried', (status) => {
    expect(classifyResponse(response(status), now, cap).kind).toBe('retry');
  });

  it('carries Retry-After', () => {
    const verdict = classifyResponse(response(429, {}, { 'Retry-After': '3' }), now, cap);
    expect(verdict).toMatchObject({ kind: 'retry', retryAfterMs: 3000 });
  });

  it('413 shrinks the batch', () => {
    expect(classifyResponse(response(413), now, cap).kind).toBe('shrink');
  });

  it.each([400, 401, 403, 404, 415, 422])('%i is dropped with the problem attached', (status) => {
    const problem = { type: 'about:blank', title: 'Bad', status, detail: 'event is required', code: 'validation' };
    const verdict = classifyResponse(response(status, problem), now, cap);
    expect(verdict.kind).toBe('drop');
    if (verdict.kind !== 'drop') return;
    expect(verdict.error.status).toBe(status);
    expect(verdict.error.problem).toEqual(problem);
    expect(verdict.error.message).toContain('event is required');
  });

  it('tolerates a non-JSON error body', () => {
    const verdict = classifyResponse(response(502, '<html>bad gateway</html>'), now, cap);
    expect(verdict.kind).toBe('retry');
  });
});
