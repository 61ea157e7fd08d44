import type { Metadata } from 'next';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
import { FeedbackProvider } from '../../../components/feedback';
import { createKeyAction, revokeKeyAction } from '../../../lib/server/actions/admin';
import { requireAdmin, withSession } from '../../../lib/server/session';
import { listKeys } from '../../../lib/server/vigil/admin';
import { formatDateTime, formatRelative } from '../../../lib/shared/format';
import { timeZone } from '../../../lib/server/time-zone';

export const metadata: Metadata = { title: 'Security' };

export default async function SecurityPage() {
  await requireAdmin();
  const keys = await withSession((token) => listKeys(token));
  const now = new Date();
  const tz = await timeZone();
  return (
    <FeedbackProvider>
      <div className="page-head">
        <div>
          <h1>Security</h1>
          <p>
            Write keys authenticate your backend on <code>POST /events</code>; keep them server-side. Client keys go in the browser and
            Android libraries.
          </p>
        </div>
      </div>

      <section className="panel" aria-labelledby="new-key" style={{ marginBottom: 16 }}>
        <h2 id="new-key">Create a key</h2>
        <CreateForm action={createKeyAction} submitLabel="Create key" secretLabel="New key">
          <div className="field">
            <label htmlFor="key-kind">Kind</label>
            <select id="key-kind" name="kind" defaultValue="write">
              <option value="write">Write key (server-side)</option>
              <option value="client">Client key (browser, Android)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="key-name">Name</label>
            <input id="key-name" name="name" type="text" required maxLength={100} placeholder="e.g. checkout backend" autoComplete="off" />
          </div>
        </CreateForm>
      </section>

      <div className="table-wrap">
        <table className="data" data-testid="keys-table">
          <caption className="sr-only">Keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} data-key-name={k.name}>
                <td>{k.name}</td>
                <td>{k.kind === 'WRITE' ? 'Write' : 'Client'}</td>
                <td className="mono">{k.displayPrefix}…</td>
                <td>{formatDateTime(k.createdAt, tz)}</td>
                <td title={formatDateTime(k.lastUsedAt, tz)}>{formatRelative(k.lastUsedAt, now)}</td>
                <td>
                  <StatusBadge status={k.revokedAt ? 'revoked' : 'active'} />
                </td>
                <td>
                  {!k.revokedAt && (
                    <ConfirmAction
                      label="Revoke"
                      small
                      title={`Revoke “${k.name}”?`}
                      description={
                        <>
                          Every request with <span className="mono">{k.displayPrefix}…</span> is refused at once, in every Vigil process. This
                          cannot be undone.
                        </>
                      }
                      action={revokeKeyAction}
                      hidden={{ id: k.id, name: k.name }}
                      confirmLabel="Revoke key"
                      tone="danger"
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {keys.length === 0 && <div className="empty">No keys yet.</div>}
      </div>
    </FeedbackProvider>
  );
}
