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

/** SQLSTATEs of text or JSON PostgreSQL refused (22021 bad encoding, 22P05 untranslatable, 22P02, 54001 depth). */
const refusedTextCodes = new Set(['22021', '22P05', '22P02', '54001']);

/**
 * Whether the database refused input text: the edge (`unstorable`) should have refused it first, so callers map
 * this to `validation_failed` as a backstop and log it, because it means a check is missing.
 */
export function databaseRefusedText(error: unknown): boolean {
  // drizzle wraps driver errors; the SQLSTATE is on the cause.
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (refusedTextCodes.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}
