import type { Metadata } from 'next';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
import { DataTable } from '../../../components/data-table';
import { FeedbackProvider } from '../../../components/feedback';
import { revokeSessionAction } from '../../../lib/server/actions/accounts';
import { createSupervisorAction, createTokenAction, revokeTokenAction } from '../../../lib/server/actions/admin';
import { requireAdmin, withSession } from '../../../lib/server/session';
import { listSupervisors } from '../../../lib/server/vigil/admin';
import { formatDateTime, formatRelative } from '../../../lib/shared/format';
import { AccountActions } from './account-actions';
import { AccountAudit } from './account-audit';
import { timeZone } from '../../../lib/server/time-zone';

export const metadata: Metadata = { title: 'Supervisors' };

const roleHelp: Record<string, string> = {
  ADMIN: 'everything, including keys and accounts',
  SUPERVISOR: 'reads and changes devices',
  VIEWER: 'reads only',
};

export default async function SupervisorsPage() {
  const viewer = await requireAdmin();
  const { supervisors, tokens, sessions, accountAudit } = await withSession((token) => listSupervisors(token));
  const now = new Date();
  const tz = await timeZone();
  const expired = (at: string | null) => at !== null && new Date(at) <= now;
  // The server sends usable sessions only; one may have expired since.
  const openSessions = sessions.filter((s) => !expired(s.expiresAt));
  return (
    <FeedbackProvider>
      <div className="page-head">
        <div>
          <h1>Supervisors</h1>
          <p>Accounts that sign in to this console, and API tokens for scripts that call the supervisor API.</p>
        </div>
      </div>

      <section className="panel" aria-labelledby="new-sup" style={{ marginBottom: 16 }}>
        <h2 id="new-sup">Create an account</h2>
        <CreateForm action={createSupervisorAction} submitLabel="Create account" secretLabel="Password">
          <div className="field">
            <label htmlFor="sup-username">Username</label>
            <input id="sup-username" name="username" type="text" required maxLength={64} pattern="[A-Za-z0-9._@\-]+" autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="sup-role">Role</label>
            <select id="sup-role" name="role" defaultValue="viewer">
              <option value="viewer">Viewer: reads only</option>
              <option value="supervisor">Supervisor: reads and changes devices</option>
              <option value="admin">Admin: everything</option>
            </select>
          </div>
        </CreateForm>
      </section>

      <DataTable
        testId="supervisors-table"
        caption="Accounts"
        wrapStyle={{ marginBottom: 16 }}
        rows={supervisors}
        rowKey={(s) => s.id}
        rowData={(s) => ({ 'data-username': s.username })}
        columns={[
          {
            header: 'Username',
            cell: (s) => (
              <>
                {s.username} {s.username === viewer.username && <span className="muted small">(you)</span>}
              </>
            ),
          },
          { header: 'Role', style: { textTransform: 'capitalize' }, cell: (s) => s.role.toLowerCase() },
          { header: 'May', className: 'muted', cell: (s) => roleHelp[s.role] },
          { header: 'Status', cell: (s) => <StatusBadge status={s.disabledAt ? 'disabled' : 'active'} /> },
          { header: 'Created', cell: (s) => formatDateTime(s.createdAt, tz) },
          { header: 'Actions', hiddenHeader: true, cell: (s) => <AccountActions account={s} self={s.username === viewer.username} /> },
        ]}
      />

      <section className="panel" aria-labelledby="new-token" style={{ marginBottom: 16 }}>
        <h2 id="new-token">Create an API token</h2>
        <CreateForm action={createTokenAction} submitLabel="Create token" secretLabel="API token">
          <div className="field">
            <label htmlFor="token-user">Acts as</label>
            <select id="token-user" name="username" defaultValue={viewer.username}>
              {supervisors.map((s) => (
                <option key={s.id} value={s.username}>
                  {s.username} ({s.role.toLowerCase()})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="token-name">Name</label>
            <input id="token-name" name="name" type="text" required maxLength={100} placeholder="e.g. nightly export" autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="token-days">Expires in days</label>
            <input id="token-days" name="expires_in_days" type="number" min={0} max={36500} step={1} placeholder="default; 0: never" />
          </div>
        </CreateForm>
      </section>

      <DataTable
        testId="tokens-table"
        caption="API tokens"
        rows={tokens}
        rowKey={(t) => t.id}
        empty="No API tokens."
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Acts as', cell: (t) => t.username },
          { header: 'Token', className: 'mono', cell: (t) => `${t.displayPrefix}…` },
          { header: 'Created', cell: (t) => formatDateTime(t.createdAt, tz) },
          { header: 'Last used', cell: (t) => formatRelative(t.lastUsedAt, now) },
          { header: 'Expires', cell: (t) => (t.expiresAt ? formatDateTime(t.expiresAt, tz) : 'never') },
          { header: 'Status', cell: (t) => <StatusBadge status={t.revokedAt ? 'revoked' : expired(t.expiresAt) ? 'expired' : 'active'} /> },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (t) =>
              !t.revokedAt && (
                <ConfirmAction
                  label="Revoke"
                  small
                  title={`Revoke token “${t.name}”?`}
                  description="Scripts using it are refused at once."
                  action={revokeTokenAction}
                  hidden={{ id: t.id, name: t.name }}
                  confirmLabel="Revoke token"
                  tone="danger"
                />
              ),
          },
        ]}
      />

      <h2 id="sessions" style={{ margin: '24px 0 8px' }}>
        Signed-in sessions
      </h2>
      <DataTable
        testId="sessions-table"
        labelledBy="sessions"
        rows={openSessions}
        rowKey={(s) => s.id}
        rowData={(s) => ({ 'data-session-id': s.id })}
        empty="No one is signed in."
        columns={[
          { header: 'Account', cell: (s) => s.username },
          { header: 'Session', className: 'mono', cell: (s) => `${s.displayPrefix}…` },
          { header: 'Signed in', cell: (s) => formatDateTime(s.createdAt, tz) },
          { header: 'Last used', cell: (s) => formatRelative(s.lastUsedAt, now) },
          { header: 'Expires', cell: (s) => formatDateTime(s.expiresAt, tz) },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (s) => (
              <ConfirmAction
                label="End"
                small
                title={`End this session of ${s.username}?`}
                description="The browser using it is signed out on its next request."
                action={revokeSessionAction}
                hidden={{ id: s.id, username: s.username }}
                confirmLabel="End session"
                tone="danger"
              />
            ),
          },
        ]}
      />

      <h2 id="account-changes" style={{ margin: '24px 0 8px' }}>
        Account changes
      </h2>
      <AccountAudit records={accountAudit} tz={tz} />
    </FeedbackProvider>
  );
}
