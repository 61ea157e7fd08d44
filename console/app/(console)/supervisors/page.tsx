import type { Metadata } from 'next';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
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

      <div className="table-wrap" style={{ marginBottom: 16 }}>
        <table className="data" data-testid="supervisors-table">
          <caption className="sr-only">Accounts</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Role</th>
              <th scope="col">May</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {supervisors.map((s) => (
              <tr key={s.id} data-username={s.username}>
                <td>
                  {s.username} {s.username === viewer.username && <span className="muted small">(you)</span>}
                </td>
                <td style={{ textTransform: 'capitalize' }}>{s.role.toLowerCase()}</td>
                <td className="muted">{roleHelp[s.role]}</td>
                <td>
                  <StatusBadge status={s.disabledAt ? 'disabled' : 'active'} />
                </td>
                <td>{formatDateTime(s.createdAt, tz)}</td>
                <td>
                  <AccountActions account={s} self={s.username === viewer.username} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

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

      <div className="table-wrap">
        <table className="data" data-testid="tokens-table">
          <caption className="sr-only">API tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Acts as</th>
              <th scope="col">Token</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{t.username}</td>
                <td className="mono">{t.displayPrefix}…</td>
                <td>{formatDateTime(t.createdAt, tz)}</td>
                <td>{formatRelative(t.lastUsedAt, now)}</td>
                <td>{t.expiresAt ? formatDateTime(t.expiresAt, tz) : 'never'}</td>
                <td>
                  <StatusBadge status={t.revokedAt ? 'revoked' : expired(t.expiresAt) ? 'expired' : 'active'} />
                </td>
                <td>
                  {!t.revokedAt && (
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
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {tokens.length === 0 && <div className="empty">No API tokens.</div>}
      </div>

      <h2 id="sessions" style={{ margin: '24px 0 8px' }}>
        Signed-in sessions
      </h2>
      <div className="table-wrap">
        <table className="data" data-testid="sessions-table" aria-labelledby="sessions">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Session</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {openSessions.map((s) => (
              <tr key={s.id} data-session-id={s.id}>
                <td>{s.username}</td>
                <td className="mono">{s.displayPrefix}…</td>
                <td>{formatDateTime(s.createdAt, tz)}</td>
                <td>{formatRelative(s.lastUsedAt, now)}</td>
                <td>{formatDateTime(s.expiresAt, tz)}</td>
                <td>
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
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {openSessions.length === 0 && <div className="empty">No one is signed in.</div>}
      </div>

      <h2 id="account-changes" style={{ margin: '24px 0 8px' }}>
        Account changes
      </h2>
      <AccountAudit records={accountAudit} tz={tz} />
    </FeedbackProvider>
  );
}
