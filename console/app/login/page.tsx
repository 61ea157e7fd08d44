import type { Metadata } from 'next';
import { safeNextPath } from '../../lib/shared/next-path';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Sign in' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === 'string' ? params.next : '/');
  return (
    <main className="login-wrap">
      <div className="login-card">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            V
          </span>
          Vigil console
        </div>
        <div>
          <h1>Sign in</h1>
          <p className="muted" style={{ margin: '4px 0 0' }}>
            Use your supervisor account.
          </p>
        </div>
        {params.expired && (
          <div className="notice warn" role="status">
            Your session has expired. Sign in again to continue.
          </div>
        )}
        {params.signed_out && (
          <div className="notice info" role="status">
            You have signed out.
          </div>
        )}
        <LoginForm next={next} />
      </div>
    </main>
  );
}
