import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { VigilError } from '../errors.js';
import { sessionSurvives } from './session-pool.js';

const refused = (code: string, severity = 'ERROR') => Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code, severity });

describe('sessionSurvives', () => {
  it.each([
    ['a raised exception (stale cached facts)', 'VGS01'],
    ['a unique violation', '23505'],
    ['a division by zero', '22012'],
    ['a cancelled statement (statement_timeout)', '57014'],
    ['a serialization failure', '40001'],
    ['a full disk', '53100'],
  ])('keeps the session after %s', (_, code) => {
    expect(sessionSurvives(refused(code), pg)).toBe(true);
  });

  it.each([
    ['an administrator ending the session', '57P01'],
    ['a crash of another backend', '57P02'],
    ['a connection exception', '08006'],
    ['an internal error', 'XX000'],
    ['too many connections', '53300'],
    ['an idle transaction timed out', '25P03'],
    ['an aborted transaction block, which would refuse every later statement', '25P02'],
    ['a prepared statement the server does not have', '26000'],
    ['a prepared statement the server already has', '42P05'],
    ['a cached plan whose result type changed', '0A000'],
  ])('ends the session after %s', (_, code) => {
    expect(sessionSurvives(refused(code), pg)).toBe(false);
  });

  it('ends the session after a FATAL or PANIC whatever its code', () => {
    expect(sessionSurvives(refused('23505', 'FATAL'), pg)).toBe(false);
    expect(sessionSurvives(refused('22012', 'PANIC'), pg)).toBe(false);
  });

  it("looks through an error that translated the server's answer (the reporting pool's)", () => {
    const translated = (cause: unknown) => new VigilError('query_too_expensive', 'cancelled', { cause });
    expect(sessionSurvives(translated(refused('57014')), pg)).toBe(true);
    expect(sessionSurvives(translated(refused('57P01')), pg)).toBe(false);
    expect(sessionSurvives(translated(new Error('Connection terminated unexpectedly')), pg)).toBe(false);
  });

  it('ends the session after a failure the server did not report (a socket, a client-side timeout)', () => {
    expect(sessionSurvives(new Error('Connection terminated unexpectedly'), pg)).toBe(false);
    expect(sessionSurvives(Object.assign(new Error('Query read timeout'), { code: '57014' }), pg)).toBe(false);
    expect(sessionSurvives(undefined, pg)).toBe(false);
  });
});
