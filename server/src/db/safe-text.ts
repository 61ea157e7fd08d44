import { z } from 'zod';

/**
 * Why PostgreSQL would refuse (or silently alter) this string, else undefined. It refuses U+0000 in text and jsonb;
 * a lone surrogate is refused by jsonb (JSON.stringify writes it as a `\ud800` escape) and turned into U+FFFD in
 * text. Events are written in group commits, one jsonb parameter per batch, so one such string would fail the
 * commit of every event it travels with: every input that reaches SQL (REST bodies and filters, GraphQL
 * arguments) is checked against this one rule at the edge.
 */
export function unstorable(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (!s.isWellFormed()) return 'must be well-formed Unicode (no lone surrogates)';
  return undefined;
}

/** A zod string that PostgreSQL stores as given (chain `.min`/`.max` after it). */
export const storableString = () =>
  z.string().superRefine((s, ctx) => {
    const problem = unstorable(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
