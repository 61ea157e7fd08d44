import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
import { type Column, DataTable } from '../../../components/data-table';
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

      <DataTable
        testId="keys-table"
        caption="Keys"
        rows={keys}
        rowKey={(k) => k.id}
        rowData={(k) => ({ 'data-key-name': k.name })}
        empty="No keys yet."
        columns={[
          { header: 'Name', cell: (k) => k.name },
          { header: 'Kind', cell: (k) => (k.kind === 'WRITE' ? 'Write' : 'Client') },
          { header: 'Key', className: 'mono', cell: (k) => `${k.displayPrefix}…` },
          { header: 'Created', cell: (k) => formatDateTime(k.createdAt, tz) },
          ...credentialColumns<(typeof keys)[number]>(now, tz, {
            status: (k) => (
              <>
                <StatusBadge status={k.state} />
                {k.replacedBy && <div className="muted mono">→ {keys.find((n) => n.id === k.replacedBy)?.displayPrefix ?? k.replacedBy}…</div>}
              </>
            ),
            actions: (k) => (
              <>
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
              </>
            ),
          }),
        ]}
      />

      <h2 id="api-tokens" style={{ marginTop: 24 }}>
        API tokens
      </h2>
      <p className="muted">Supervisors&apos; tokens for REST and GraphQL; create and revoke them on the Supervisors page.</p>
      <DataTable
        testId="tokens-table"
        caption="API tokens"
        rows={tokens}
        rowKey={(t) => t.id}
        rowData={(t) => ({ 'data-token-name': t.name })}
        empty="No API tokens yet."
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Account', cell: (t) => t.username },
          { header: 'Token', className: 'mono', cell: (t) => `${t.displayPrefix}…` },
          ...credentialColumns<(typeof tokens)[number]>(now, tz, {
            status: (t) => <StatusBadge status={t.state} />,
            actions: (t) => t.state === 'ACTIVE' && <RotateButton what="token" id={t.id} name={t.name} prefix={t.displayPrefix} action={rotateTokenAction} />,
          }),
        ]}
      />
    </FeedbackProvider>
  );
}

/** Both tables end alike: last use, expiry, state (rotation included) and the actions. */
function credentialColumns<T extends { lastUsedAt: string | null; expiresAt: string | null }>(
  now: Date,
  tz: string,
  own: { status: (c: T) => ReactNode; actions: (c: T) => ReactNode },
): Column<T>[] {
  return [
    { header: 'Last used', title: (c) => formatDateTime(c.lastUsedAt, tz), cell: (c) => formatRelative(c.lastUsedAt, now) },
    { header: 'Expires', title: (c) => (c.expiresAt ? formatDateTime(c.expiresAt, tz) : undefined), cell: (c) => expiry(c.expiresAt, now, tz) },
    { header: 'Status', cell: own.status },
    { header: 'Actions', hiddenHeader: true, cell: own.actions },
  ];
}

function expiry(at: string | null, now: Date, tz: string): ReactNode {
  if (!at) return <span className="muted">never</span>;
  return new Date(at) <= now ? formatDateTime(at, tz) : formatUntil(at, now);
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
