import { describe, expect, it } from 'vitest';

// Test files share a worker process (vitest.config.ts) and the harness lowers the cost process-wide, so this file
// loads a copy of the module of its own (the query names a separate module), which starts at the production cost.
// The lowered cost is tested last.
const own = './password.js?production-cost';
const { hashPassword, lowerPasswordCostForTests, PASSWORD_PARAMS, verifyPassword } = (await import(own)) as typeof import('./password.js');

describe('password hashing', () => {
  it('hashes at OWASP scrypt floor by default (N=2^15, r=8, p=1), self-described in the stored string', async () => {
    expect(PASSWORD_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(stored);
  });

  it('refuses a stored string that is not a scrypt hash', async () => {
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });

  it('verifies a hash by its own parameters: the cheaper test cost and the production cost check each other', async () => {
    const production = await hashPassword('pw');
    lowerPasswordCostForTests();
    const cheap = await hashPassword('pw');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('pw', cheap)).toBe(true);
    expect(await verifyPassword('pw', production)).toBe(true);
    expect(await verifyPassword('wrong', cheap)).toBe(false);
  });
});
