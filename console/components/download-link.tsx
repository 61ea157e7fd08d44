'use client';

import { useState, type MouseEvent } from 'react';
import { formatCount } from '../lib/shared/format';

type Progress = { state: 'idle' } | { state: 'loading'; rows: number; bytes: number } | { state: 'done'; rows: number } | { state: 'failed'; message: string };

/**
 * A download that shows its progress: with JavaScript the file is read here as it streams (rows counted as they
 * arrive) and then saved; without it, this is a plain link and the browser downloads it on its own.
 */
export function DownloadLink({ href, filename, label }: { href: string; filename: string; label: string }) {
  const [progress, setProgress] = useState<Progress>({ state: 'idle' });

  async function download(event: MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (progress.state === 'loading') return;
    setProgress({ state: 'loading', rows: 0, bytes: 0 });
    try {
      const response = await fetch(href, { cache: 'no-store' });
      // Sent to sign-in (the session ended): go there, as the plain link would have.
      if (response.redirected) {
        window.location.assign(response.url);
        return;
      }
      if (!response.ok || !response.body) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      // Lines, less the CSV header; a last line without its newline counts too.
      let lines = 0;
      let bytes = 0;
      let open = false;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        for (const byte of value) if (byte === 10) lines++;
        if (value.byteLength) open = value[value.byteLength - 1] !== 10;
        setProgress({ state: 'loading', rows: Math.max(0, lines - 1), bytes });
      }
      const rows = Math.max(0, lines + (open ? 1 : 0) - 1);
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setProgress({ state: 'done', rows });
    } catch (error) {
      setProgress({ state: 'failed', message: (error as Error).message });
    }
  }

  return (
    <span className="row">
      <a className="btn btn-ghost btn-small" href={href} download={filename} onClick={download} aria-busy={progress.state === 'loading'}>
        {label}
      </a>
      <span role="status" aria-live="polite" className="small muted" data-testid="download-progress">
        {progress.state === 'loading' && `Downloading… ${formatCount(progress.rows)} rows (${formatCount(Math.round(progress.bytes / 1024))} KB)`}
        {progress.state === 'done' && `Downloaded ${formatCount(progress.rows)} rows.`}
        {progress.state === 'failed' && <span className="error-text">Download failed: {progress.message}</span>}
      </span>
    </span>
  );
}
