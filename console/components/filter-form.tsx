'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent, ReactNode } from 'react';

/**
 * A GET form whose values become the page's URL (shareable, Back works). Empty fields are left out of the URL
 * and paging starts again; choosing in a select applies at once. Without JavaScript it is a plain GET form.
 */
export function FilterForm({ path, children, label }: { path: string; children: ReactNode; label: string }) {
  const router = useRouter();
  function go(form: HTMLFormElement) {
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') query.set(key, value.trim());
    }
    const qs = query.toString();
    router.push(qs ? `${path}?${qs}` : path);
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    go(event.currentTarget);
  }
  return (
    <form
      method="get"
      action={path}
      className="filters"
      aria-label={label}
      role="search"
      onSubmit={onSubmit}
      onChange={(event) => {
        if (event.target instanceof HTMLSelectElement) go(event.currentTarget);
      }}
    >
      {children}
    </form>
  );
}
