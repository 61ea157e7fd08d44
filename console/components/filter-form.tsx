'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';

/** The id of the control that submitted the last filter form, so the rebuilt form can give focus back to it. */
let focusAfterSubmit: string | null = null;

/**
 * A GET form whose values become the page's URL (shareable, Back works). It applies on submit only, so a keyboard
 * user can step through a select's options; after the page is rendered again with the new filters, focus goes
 * back to the control it was on. Empty fields are left out of the URL and paging starts again. Without JavaScript
 * it is a plain GET form.
 */
export function FilterForm({ path, children, label }: { path: string; children: ReactNode; label: string }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!focusAfterSubmit) return;
    const target = form.current?.querySelector<HTMLElement>(`#${CSS.escape(focusAfterSubmit)}`);
    focusAfterSubmit = null;
    target?.focus();
  }, []);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const active = document.activeElement;
    focusAfterSubmit = active instanceof HTMLElement && event.currentTarget.contains(active) && active.id ? active.id : null;
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) {
      if (typeof value === 'string' && value.trim() !== '') query.set(key, value.trim());
    }
    const qs = query.toString();
    router.push(qs ? `${path}?${qs}` : path);
  }
  return (
    <form ref={form} method="get" action={path} className="filters" aria-label={label} role="search" onSubmit={onSubmit}>
      {children}
    </form>
  );
}
