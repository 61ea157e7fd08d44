'use client';

import { useState } from 'react';

/** Copies a secret; falls back to selecting it where the Clipboard API is unavailable (plain http). */
export function CopyButton({ value, targetId }: { value: string; targetId: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'select'>('no');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      const node = document.getElementById(targetId);
      if (node) {
        const range = document.createRange();
        range.selectNodeContents(node);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
      setCopied(document.execCommand?.('copy') ? 'yes' : 'select');
    }
  }
  return (
    <button type="button" className="btn btn-ghost btn-small" onClick={copy} aria-live="polite">
      {copied === 'yes' ? 'Copied' : copied === 'select' ? 'Selected: press Ctrl+C' : 'Copy'}
    </button>
  );
}

export function SecretOnce({ secret, label }: { secret: string; label: string }) {
  const id = `secret-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="secret" data-testid="secret">
      <span className="sr-only">{label}</span>
      <code id={id}>{secret}</code>
      <CopyButton value={secret} targetId={id} />
    </div>
  );
}
