import type { Metadata } from 'next';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
import { FeedbackProvider } from '../../../components/feedback';
import { createSupervisorAction, createTokenAction, revokeTokenAction } from '../../../lib/server/actions/admin';
import { requireAdmin, withSession } from '../../../lib/server/session';
import { listSupervisors } from '../../../lib/server/vigil/admin';
import { formatDateTime, formatRelative } from '../../../lib/shared/format';

export const metadata: Metadata = { title: 'Supervisors' };

const roleHelp: Record<string, string> = {
  ADMIN: 'everything, including keys and accounts',
  SUPERVISOR: 'reads and changes devices',
  VIEWER: 'reads only',
};

export default async function SupervisorsPage() {
  const viewer = await requireAdmin();
  const { supervisors, tokens } = await withSession((token) => listSupervisors(token));
  const now = new Date();
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
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {supervisors.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.username} {s.username === viewer.username && <span className="muted small">(you)</span>}
                </td>
                <td style={{ textTransform: 'capitalize' }}>{s.role.toLowerCase()}</td>
                <td className="muted">{roleHelp[s.role]}</td>
                <td>{formatDateTime(s.createdAt)}</td>
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
              <th scope="col">Status</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{t.username}</td>
                <td className="mono">{t.displayPrefix}…</td>
                <td>{formatDateTime(t.createdAt)}</td>
                <td>{formatRelative(t.lastUsedAt, now)}</td>
                <td>
                  <StatusBadge status={t.revokedAt ? 'revoked' : 'active'} />
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
    </FeedbackProvider>
  );
}
