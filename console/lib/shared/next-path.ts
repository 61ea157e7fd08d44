/** Only a path on this console is a valid place to return to after sign-in (no open redirect). */
export function safeNextPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.startsWith('/login') || value.startsWith('/auth/')) return '/';
  return value;
}
