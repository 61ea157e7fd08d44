'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { safeNextPath } from '../../shared/next-path';
import { assertSameOrigin } from '../csrf';
import { ApiError } from '../errors';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../session';
import { rest } from '../transport';

export interface LoginState {
  error: string | null;
  username: string;
}

interface LoginAnswer {
  token: string;
  expires_at: string;
  supervisor: { id: string; username: string; role: string };
}

export async function login(_previous: LoginState, form: FormData): Promise<LoginState> {
  const username = String(form.get('username') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (!username || !password) return { error: 'Enter your username and password.', username };
  let answer: LoginAnswer;
  try {
    await assertSameOrigin();
    // The server limits sign-in attempts per client address. Every console sign-in comes from the console's own
    // address, so pass the browser's on; the server believes it only when the console is in VIGIL_TRUSTED_PROXIES.
    const forwardedFor = (await headers()).get('x-forwarded-for');
    answer = await rest<LoginAnswer>('POST', '/api/auth/login', { body: { username, password }, forwardedFor });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { error: 'Wrong username or password.', username };
    if (error.status === 429) return { error: `Too many sign-in attempts. ${error.message}`, username };
    if (error.status === 400) return { error: 'Enter a valid username and password.', username };
    return { error: error.message, username };
  }
  await setSessionCookie(answer.token, new Date(answer.expires_at));
  redirect(safeNextPath(form.get('next')));
}

export async function logout(): Promise<void> {
  await assertSameOrigin();
  const token = await sessionToken();
  if (token) {
    // Ends the session on the server at once; an already-expired session has nothing left to end.
    await rest('POST', '/api/auth/logout', { token }).catch(() => undefined);
  }
  await clearSessionCookie();
  redirect('/login?signed_out=1');
}
