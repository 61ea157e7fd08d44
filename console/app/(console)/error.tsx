'use client';

export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="panel" role="alert">
      <h1>Something went wrong</h1>
      <p className="muted">The console could not load this page{error.digest ? ` (reference ${error.digest})` : ''}. The Vigil API may be unavailable.</p>
      <button className="btn" type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
