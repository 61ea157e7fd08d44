'use client';

import Link, { useLinkStatus } from 'next/link';
import { usePathname } from 'next/navigation';

export interface NavItem {
  href: string;
  label: string;
}

/**
 * Shown while the page a link leads to is rendered. This replaces a route-level loading.tsx, whose fallback is
 * what a browser without JavaScript kept showing instead of the server-rendered page.
 */
function Pending() {
  const { pending } = useLinkStatus();
  return pending ? (
    <span className="nav-pending" role="status">
      <span className="sr-only">Loading…</span>
    </span>
  ) : null;
}

export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      {items.map((item) => {
        const current = item.href === '/' ? pathname === '/' : pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link key={item.href} href={item.href} aria-current={current ? 'page' : undefined}>
            {item.label}
            <Pending />
          </Link>
        );
      })}
    </nav>
  );
}
