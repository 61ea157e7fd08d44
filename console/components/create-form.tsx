'use client';

import { useActionState, useEffect, useRef, type ReactNode } from 'react';
import { idle, type ActionResult } from '../lib/shared/action-result';
import { SecretOnce } from './copy-button';

type Action = (previous: ActionResult, form: FormData) => Promise<ActionResult>;

/** A create form whose answer may carry a secret that is shown here once, with a copy button. */
export function CreateForm({ action, children, submitLabel, secretLabel }: { action: Action; children: ReactNode; submitLabel: string; secretLabel: string }) {
  const [state, run, pending] = useActionState(action, idle);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.ok) form.current?.reset();
  }, [state]);
  return (
    <div className="stack" style={{ gap: 12 }}>
      <form ref={form} action={run} className="form-grid">
        {children}
        <div>
          <button type="submit" className="btn" disabled={pending}>
            {pending ? 'Creating…' : submitLabel}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {state.message && (
          <div className={`notice ${state.ok ? 'ok' : 'error'}`} role={state.ok ? 'status' : 'alert'} key={state.at} style={{ marginBottom: 8 }}>
            {state.message}
          </div>
        )}
        {state.ok && state.secret && <SecretOnce secret={state.secret} label={secretLabel} />}
      </div>
    </div>
  );
}
