import type { Metadata } from 'next';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
import { FeedbackProvider } from '../../../components/feedback';
import { createKeyAction, revokeKeyAction, rotateKeyAction, rotateTokenAction } from '../../../lib/server/actions/admin';
import { requireAdmin, withSession } from '../../../lib/server/session';
import { listKeys, listSecurityTokens } from '../../../lib/server/vigil/admin';
import { formatDateTime, formatRelative, formatUntil } from '../../../lib/shared/format';
import { timeZone } from '../../../lib/server/time-zone';

export const metadata: Metadata = { title: 'Security' };

export default async function SecurityPage() {
  await requireAdmin();
  const [keys, tokens] = await withSession((token) => Promise.all([listKeys(token), listSecurityTokens(token)]));
  const now = new Date();
  const tz = await timeZone();
  return (
    <FeedbackProvider>
      <div className="page-head">
        <div>
          <h1>Security</h1>
          <p>
            Write keys authenticate your backend on <code>POST /events</code>; keep them server-side. Client keys go in the browser and Android libraries.
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
          <div className="field">
            <label htmlFor="key-expires">Expires in (days)</label>
            <input id="key-expires" name="expires_in_days" type="number" min={0} max={36500} step={1} placeholder="never" />
          </div>
        </CreateForm>
      </section>

      <div className="table-wrap">
        <table className="data" data-testid="keys-table">
          <caption className="sr-only">Keys</caption>
          <CredentialHead columns={['Name', 'Kind', 'Key', 'Created']} />
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} data-key-name={k.name}>
                <td>{k.name}</td>
                <td>{k.kind === 'WRITE' ? 'Write' : 'Client'}</td>
                <td className="mono">{k.displayPrefix}…</td>
                <td>{formatDateTime(k.createdAt, tz)}</td>
                <td title={formatDateTime(k.lastUsedAt, tz)}>{formatRelative(k.lastUsedAt, now)}</td>
                <Expiry at={k.expiresAt} now={now} tz={tz} />
                <td>
                  <StatusBadge status={k.state} />
                  {k.replacedBy && <div className="muted mono">→ {keys.find((n) => n.id === k.replacedBy)?.displayPrefix ?? k.replacedBy}…</div>}
                </td>
                <td>
                  {k.state === 'ACTIVE' && <RotateButton what="key" id={k.id} name={k.name} prefix={k.displayPrefix} action={rotateKeyAction} />}
                  {!k.revokedAt && (
                    <ConfirmAction
                      label="Revoke"
                      small
                      title={`Revoke “${k.name}”?`}
                      description={
                        <>
                          Every request with <span className="mono">{k.displayPrefix}…</span> is refused at once, in every Vigil process. This cannot be undone.
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

      <h2 id="api-tokens" style={{ marginTop: 24 }}>
        API tokens
      </h2>
      <p className="muted">Supervisors&apos; tokens for REST and GraphQL; create and revoke them on the Supervisors page.</p>
      <div className="table-wrap">
        <table className="data" data-testid="tokens-table">
          <caption className="sr-only">API tokens</caption>
          <CredentialHead columns={['Name', 'Account', 'Token']} />
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} data-token-name={t.name}>
                <td>{t.name}</td>
                <td>{t.username}</td>
                <td className="mono">{t.displayPrefix}…</td>
                <td title={formatDateTime(t.lastUsedAt, tz)}>{formatRelative(t.lastUsedAt, now)}</td>
                <Expiry at={t.expiresAt} now={now} tz={tz} />
                <td>
                  <StatusBadge status={t.state} />
                </td>
                <td>{t.state === 'ACTIVE' && <RotateButton what="token" id={t.id} name={t.name} prefix={t.displayPrefix} action={rotateTokenAction} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {tokens.length === 0 && <div className="empty">No API tokens yet.</div>}
      </div>
    </FeedbackProvider>
  );
}

/** Both tables end alike: last use, expiry, state (rotation included) and the actions. */
function CredentialHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {[...columns, 'Last used', 'Expires', 'Status'].map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        <th scope="col">
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

function Expiry({ at, now, tz }: { at: string | null; now: Date; tz: string }) {
  if (!at) return <td className="muted">never</td>;
  return <td title={formatDateTime(at, tz)}>{new Date(at) <= now ? formatDateTime(at, tz) : formatUntil(at, now)}</td>;
}

/** Rotation: the new secret is shown once by the page's feedback; the old one works through the overlap. */
function RotateButton(props: { what: 'key' | 'token'; id: string; name: string; prefix: string; action: typeof rotateKeyAction }) {
  const fieldId = `overlap-${props.id}`;
  return (
    <ConfirmAction
      label="Rotate"
      small
      title={`Rotate “${props.name}”?`}
      description={
        <>
          A new {props.what} is created and shown once. <span className="mono">{props.prefix}…</span> keeps working for the overlap, then is refused.
        </>
      }
      fields={
        <div className="field">
          <label htmlFor={fieldId}>Overlap (hours)</label>
          <input id={fieldId} name="overlap_hours" type="number" min={0} max={720} step="any" placeholder="server default (24)" />
        </div>
      }
      action={props.action}
      hidden={{ id: props.id, name: props.name }}
      confirmLabel={`Rotate ${props.what}`}
    />
  );
}
