'use client';

import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import type { ActionResult } from '../lib/shared/action-result';
import { SecretOnce } from './copy-button';

interface Feedback {
  show(result: ActionResult): void;
}

const FeedbackContext = createContext<Feedback>({ show: () => {} });

/** The page-level place where the outcome of an action is announced; it outlives the button that caused it. */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [last, setLast] = useState<ActionResult | null>(null);
  const show = useCallback((result: ActionResult) => setLast(result), []);
  return (
    <FeedbackContext.Provider value={{ show }}>
      <div aria-live="polite" data-testid="feedback">
        {last && last.message && (
          <div className={`notice ${last.ok ? 'ok' : 'error'}`} role={last.ok ? 'status' : 'alert'} key={last.at}>
            {last.message}
          </div>
        )}
        {/* A secret an action answered (a reset password) is shown here once; it is gone on the next reload. */}
        {last?.ok && last.secret && <SecretOnce secret={last.secret} label="New secret" />}
      </div>
      {children}
    </FeedbackContext.Provider>
  );
}

export const useFeedback = () => useContext(FeedbackContext);
