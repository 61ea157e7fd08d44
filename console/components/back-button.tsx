'use client';

import { useEffect, useState } from 'react';

/**
 * "Previous" as the browser's Back: the URL holds only the current cursor, and the page before is the one the
 * supervisor came from. Rendered once JavaScript runs; without it the browser's own Back does the same.
 */
export function BackButton({ label }: { label: string }) {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <button type="button" className="btn btn-ghost btn-small" onClick={() => window.history.back()} rel="prev">
      {label}
    </button>
  );
}
