import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { analyzeEmail, looksLikeEmail } from './email.js';

const require = createRequire(import.meta.url);

describe('analyzeEmail', () => {
  it('validates syntax', () => {
    for (const ok of ['a@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.org"]) expect(analyzeEmail(ok).valid, ok).toBe(true);
    for (const bad of [
      'a@b',
      '@example.com',
      'a@@example.com',
      'a b@example.com',
      '.a@example.com',
      'a..b@example.com',
      'a@-x.com',
      'x'.repeat(65) + '@example.com',
    ]) {
      expect(analyzeEmail(bad).valid, bad).toBe(false);
    }
  });

  it('normalises case, sub-addressing and Gmail dots', () => {
    expect(analyzeEmail('John.Doe+promo@GoogleMail.com')).toMatchObject({ normalized: 'johndoe@gmail.com', domain: 'gmail.com', free_provider: true });
    expect(analyzeEmail('Jane+x@Outlook.com').normalized).toBe('jane@outlook.com');
    expect(analyzeEmail('Jane.Doe+x@corp.example').normalized).toBe('jane.doe+x@corp.example');
  });

  it('knows disposable domains from the maintained list, and role accounts', () => {
    expect(analyzeEmail('x@mailinator.com').disposable).toBe(true);
    expect(analyzeEmail('x@example.com').disposable).toBe(false);
    expect(analyzeEmail('admin@example.com').role_account).toBe(true);
    expect(analyzeEmail('support+tickets@example.com').role_account).toBe(true);
    expect(analyzeEmail('alice@example.com').role_account).toBe(false);
    expect(looksLikeEmail('user-123')).toBe(false);
  });

  it('treats any subdomain of a wildcard-listed domain as disposable, and only those', () => {
    const wildcard = (require('disposable-email-domains/wildcard.json') as string[])[0]!;
    expect(analyzeEmail(`x@${wildcard}`).disposable).toBe(true);
    expect(analyzeEmail(`x@inbox.team.${wildcard}`).disposable).toBe(true);
    expect(analyzeEmail(`x@not${wildcard}`).disposable).toBe(false);
  });
});
