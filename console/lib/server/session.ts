import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { SESSION_COOKIE } from '../shared/session-cookie';
import { SessionExpiredError } from './errors';
import { rest } from './transport';

export type Role = 'admin' | 'supervisor' | 'viewer';

export interface Viewer {
  id: string;
  username: string;
  role: Role;
  canManageDevices: boolean;
  isAdmin: boolean;
}

/** Under https the cookie is Secure; behind a TLS-terminating proxy, X-Forwarded-Proto tells. */
export async function isHttps(): Promise<boolean> {
  if (process.env.VIGIL_CONSOLE_SECURE_COOKIE === '1') return true;
  const h = await headers();
  const proto = h.get('x-forwarded-proto')?.split(',')[0]?.trim();
  if (proto) return proto === 'https';
  const origin = h.get('origin');
  return origin?.startsWith('https://') ?? false;
}

export async function setSessionCookie(token: string, expiresAt: Date): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: await isHttps(),
    path: '/',
    expires: expiresAt,
  });
}

export async function clearSessionCookie(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
}

export async function sessionToken(): Promise<string | null> {
  return (await cookies()).get(SESSION_COOKIE)?.value ?? null;
}

/** Where an expired session lands: the cookie is cleared there and the user comes back here after signing in. */
export async function expiredUrl(): Promise<string> {
  const here = (await headers()).get('x-vigil-path') ?? '/';
  return `/auth/expired?next=${encodeURIComponent(here)}`;
}

/** The session token, or a redirect to sign-in. */
export async function requireToken(): Promise<string> {
  const token = await sessionToken();
  if (!token) redirect(await expiredUrl());
  return token;
}

/** Runs an API call with the session; an expired or revoked session sends the user to sign in again. */
export async function withSession<T>(call: (token: string) => Promise<T>): Promise<T> {
  const token = await requireToken();
  let result: T;
  try {
    result = await call(token);
  } catch (error) {
    if (error instanceof SessionExpiredError) redirect(await expiredUrl());
    throw error;
  }
  return result;
}

interface Me {
  id: string;
  username: string;
  role: Role;
}

/** The signed-in supervisor, asked once per request. */
export const currentViewer = cache(async (): Promise<Viewer> => {
  const me = await withSession((token) => rest<Me>('GET', '/api/auth/me', { token }));
  return {
    id: me.id,
    username: me.username,
    role: me.role,
    canManageDevices: me.role === 'admin' || me.role === 'supervisor',
    isAdmin: me.role === 'admin',
  };
});

/** For admin-only pages: anyone else is sent to the overview. */
export async function requireAdmin(): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!viewer.isAdmin) redirect('/?denied=admin');
  return viewer;
}
