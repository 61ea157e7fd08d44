'use client';

import { useActionState } from 'react';
import { login, type LoginState } from '../../lib/server/actions/auth';

export function LoginForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(login, { error: null, username: '' });
  return (
    <form action={action} aria-describedby={state.error ? 'login-error' : undefined}>
      {state.error && (
        <div className="notice error" role="alert" id="login-error">
          {state.error}
        </div>
      )}
      <input type="hidden" name="next" value={next} />
      <div className="field">
        <label htmlFor="username">Username</label>
        <input id="username" name="username" type="text" autoComplete="username" required defaultValue={state.username} autoFocus />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button className="btn" type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
