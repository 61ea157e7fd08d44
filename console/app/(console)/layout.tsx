import type { ReactNode } from 'react';
import { NavLinks, type NavItem } from '../../components/nav-links';
import { TimeZoneCookie } from '../../components/time-zone-cookie';
import { logout } from '../../lib/server/actions/auth';
import { currentViewer } from '../../lib/server/session';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  const items: NavItem[] = [
    { href: '/', label: 'Overview' },
    { href: '/devices', label: 'Devices' },
    { href: '/events', label: 'Events' },
    { href: '/reports', label: 'Reports' },
    { href: '/live', label: 'Live' },
  ];
  if (viewer.isAdmin) items.push({ href: '/security', label: 'Security' }, { href: '/supervisors', label: 'Supervisors' });
  if (viewer.isAdmin) items.push({ href: '/webhooks', label: 'Webhooks' });
  return (
    <div className="shell">
      <TimeZoneCookie />
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            V
          </span>
          Vigil
        </div>
        <NavLinks items={items} />
        <div className="sidebar-foot">
          <div>
            <div className="who" data-testid="signed-in-user">
              {viewer.username}
            </div>
            <div className="role">{viewer.role}</div>
          </div>
          <form action={logout}>
            <button type="submit" className="btn btn-ghost btn-small">
              Sign out
            </button>
          </form>
        </div>
      </aside>
      <main className="main" id="content">
        {children}
      </main>
    </div>
  );
}
