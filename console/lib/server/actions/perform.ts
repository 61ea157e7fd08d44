import 'server-only';
import { redirect } from 'next/navigation';
import type { ActionResult } from '../../shared/action-result';
import { assertSameOrigin } from '../csrf';
import { ApiError, SessionExpiredError } from '../errors';
import { currentViewer, expiredUrl, requireToken, type Viewer } from '../session';

function describe(error: ApiError): string {
  if (error.code === 'forbidden') return `Not allowed: ${error.message}`;
  const fields = error.fieldErrors.map((f) => `${f.path}: ${f.message}`).join('; ');
  return fields ? `${error.message} (${fields})` : error.message;
}

/**
 * The one path of every mutation: same-origin check, the session, then the API call. API refusals come back as
 * messages; an expired session goes to sign-in; anything else is a failure and reaches the error page.
 */
export async function perform(run: (token: string, viewer: Viewer) => Promise<string | { message: string; secret: string }>): Promise<ActionResult> {
  try {
    await assertSameOrigin();
    const token = await requireToken();
    const viewer = await currentViewer();
    const outcome = await run(token, viewer);
    return typeof outcome === 'string' ? { ok: true, message: outcome, at: Date.now() } : { ok: true, ...outcome, at: Date.now() };
  } catch (error) {
    if (error instanceof SessionExpiredError) redirect(await expiredUrl());
    if (error instanceof ApiError) return { ok: false, message: describe(error), at: Date.now() };
    throw error;
  }
}

export const refuse = (message: string): ActionResult => ({ ok: false, message, at: Date.now() });

export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
