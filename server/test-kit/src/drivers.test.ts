import { afterEach, describe, expect, it, vi } from 'vitest';
import { surfaceDriver, surfaceDrivers, testDrivers } from './databases.js';

/** The variables the test kit reads, each unset unless given. */
const stub = (url: string | undefined, only: string | undefined, more: { ci?: string; surface?: string } = {}) => {
  vi.stubEnv('VIGIL_TEST_DATABASE_URL', url);
  vi.stubEnv('VIGIL_TEST_DRIVERS', only);
  vi.stubEnv('CI', more.ci);
  vi.stubEnv('VIGIL_TEST_SURFACE_DRIVER', more.surface);
};
afterEach(() => vi.unstubAllEnvs());

describe('testDrivers', () => {
  const env = (url: string | undefined, only: string | undefined, ci: string | undefined = undefined) => stub(url, only, { ci });

  it('runs both drivers when PostgreSQL is up, PGlite alone when not (outside CI)', () => {
    env('postgres://localhost/x', undefined);
    expect(testDrivers()).toEqual(['pglite', 'postgres']);
    env(undefined, undefined);
    expect(testDrivers()).toEqual(['pglite']);
    env(undefined, undefined, '1');
    expect(() => testDrivers()).toThrow(/VIGIL_TEST_DATABASE_URL is not set/);
  });

  it('runs one pass with VIGIL_TEST_DRIVERS, and refuses a PostgreSQL pass without PostgreSQL or an unknown name', () => {
    env('postgres://localhost/x', 'pglite');
    expect(testDrivers()).toEqual(['pglite']);
    env('postgres://localhost/x', 'postgres');
    expect(testDrivers()).toEqual(['postgres']);
    env(undefined, 'postgres');
    expect(() => testDrivers()).toThrow(/VIGIL_TEST_DATABASE_URL is not set/);
    env('postgres://localhost/x', 'mysql');
    expect(() => testDrivers()).toThrow(/VIGIL_TEST_DRIVERS is "mysql"/);
  });
});

describe('surfaceDrivers', () => {
  const env = (url: string | undefined, only: string | undefined, surface: string | undefined = undefined) => stub(url, only, { surface });

  it('runs a surface test once, on PostgreSQL when the run has it, on PGlite when not', () => {
    env('postgres://localhost/x', undefined);
    expect(surfaceDrivers()).toEqual(['postgres']);
    env(undefined, undefined);
    expect(surfaceDrivers()).toEqual(['pglite']);
  });

  it("runs it in the surface driver's pass only, so make test's two passes run it once", () => {
    env('postgres://localhost/x', 'pglite');
    expect(surfaceDrivers()).toEqual([]);
    env('postgres://localhost/x', 'postgres');
    expect(surfaceDrivers()).toEqual(['postgres']);
    env('postgres://localhost/x', 'pglite', 'pglite');
    expect(surfaceDrivers()).toEqual(['pglite']);
    env('postgres://localhost/x', 'postgres', 'pglite');
    expect(surfaceDrivers()).toEqual([]);
  });

  it('refuses an unknown surface driver, or PostgreSQL without PostgreSQL', () => {
    env('postgres://localhost/x', undefined, 'mysql');
    expect(() => surfaceDriver()).toThrow(/VIGIL_TEST_SURFACE_DRIVER is "mysql"/);
    env(undefined, undefined, 'postgres');
    expect(() => surfaceDriver()).toThrow(/VIGIL_TEST_DATABASE_URL is not set/);
  });
});
