'use client';

import { useActionState, useId, useRef, type ReactNode } from 'react';
import { idle, type ActionResult } from '../lib/shared/action-result';
import { useFeedback } from './feedback';

type Action = (previous: ActionResult, form: FormData) => Promise<ActionResult>;

export interface ConfirmActionProps {
  /** Text of the button that opens the dialog. */
  label: string;
  title: string;
  description?: ReactNode;
  action: Action;
  hidden: Record<string, string>;
  /** Inputs the user fills in before confirming (a reason, a user id). */
  fields?: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'ok' | 'primary';
  small?: boolean;
}

/**
 * A button that opens a confirmation dialog around a server action. The dialog stays open with the error on a
 * refusal and closes on success; the outcome is announced by the page's FeedbackProvider.
 */
export function ConfirmAction({ label, title, description, action, hidden, fields, confirmLabel, tone = 'primary', small }: ConfirmActionProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const feedback = useFeedback();
  // The outcome is handed to the page in the same transition as the refreshed data: on success this button may
  // disappear (a deactivated device shows Reactivate instead), so nothing may wait for it to render again.
  const [state, run, pending] = useActionState(async (previous: ActionResult, data: FormData) => {
    const result = await action(previous, data);
    if (result.ok) {
      dialog.current?.close();
      form.current?.reset();
      feedback.show(result);
    }
    return result;
  }, idle);
  const titleId = useId();
  const errorId = useId();

  const toneClass = tone === 'danger' ? 'btn-danger' : tone === 'ok' ? 'btn-ok' : '';
  const showError = !state.ok && state.at !== 0 && state.message;
  return (
    <>
      <button type="button" className={`btn ${toneClass} ${small ? 'btn-small' : ''}`} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="confirm" aria-labelledby={titleId}>
        <form ref={form} action={run} aria-describedby={showError ? errorId : undefined}>
          <h2 id={titleId}>{title}</h2>
          {description && <div className="muted">{description}</div>}
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {fields}
          {showError && (
            <div className="notice error" role="alert" id={errorId} style={{ margin: 0 }}>
              {state.message}
            </div>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className={`btn ${toneClass}`} disabled={pending}>
              {pending ? 'Working…' : confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
