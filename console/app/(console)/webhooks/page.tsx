import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '../../../components/badges';
import { ConfirmAction } from '../../../components/confirm-action';
import { CreateForm } from '../../../components/create-form';
import { DataTable } from '../../../components/data-table';
import { FeedbackProvider } from '../../../components/feedback';
import { createWebhookAction, deleteWebhookAction, redeliverWebhookAction, toggleWebhookAction } from '../../../lib/server/actions/webhooks';
import { requireAdmin, withSession } from '../../../lib/server/session';
import { listWebhooks, webhookAttempts } from '../../../lib/server/vigil/webhooks';
import { formatDateTime } from '../../../lib/shared/format';
import { timeZone } from '../../../lib/server/time-zone';

export const metadata: Metadata = { title: 'Webhooks' };

type Search = Promise<Record<string, string | string[] | undefined>>;

const STATUSES = ['pending', 'delivered', 'dead', 'cancelled'];

const one = (value: string | string[] | undefined) => (typeof value === 'string' && value !== '' ? value : null);

/** Subscriptions, their messages (the delivery log per message) and redelivery; admin only, like the API. */
export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  await requireAdmin();
  const params = await searchParams;
  const subscription = one(params.subscription);
  const status = one(params.status);
  const message = one(params.message);
  const [page, attempts] = await withSession((token) =>
    Promise.all([listWebhooks(token, subscription, status && STATUSES.includes(status) ? status : null), message ? webhookAttempts(token, message) : null]),
  );
  const tz = await timeZone();
  const query = (extra: Record<string, string | null>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ subscription, status, ...extra })) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `/webhooks?${s}` : '/webhooks';
  };
  return (
    <FeedbackProvider>
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p>
            Vigil posts signed events (Standard Webhooks) to your receivers: a tag appearing on a device, a score over a threshold, registration, key and
            account changes. Delivery is at least once; deduplicate on <code>webhook-id</code>.
          </p>
        </div>
      </div>

      <section className="panel" aria-labelledby="new-webhook" style={{ marginBottom: 16 }}>
        <h2 id="new-webhook">Create a subscription</h2>
        <CreateForm action={createWebhookAction} submitLabel="Create subscription" secretLabel="Signing secret">
          <div className="field">
            <label htmlFor="webhook-url">Receiver URL</label>
            <input id="webhook-url" name="url" type="url" required maxLength={2048} placeholder="https://hooks.example.com/vigil" autoComplete="off" />
          </div>
          <fieldset className="field">
            <legend>Event types</legend>
            {page.webhookEventTypes.map((t) => (
              <label key={t} style={{ display: 'block' }}>
                <input type="checkbox" name="event_types" value={t} /> <span className="mono">{t}</span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="webhook-tags">Only these tags (device.tag_added; blank: any)</label>
            <input id="webhook-tags" name="tags" type="text" placeholder="tor, emulator" autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="webhook-threshold">Score threshold (device.score_exceeded, 0–1)</label>
            <input id="webhook-threshold" name="score_threshold" type="number" min={0} max={1} step={0.01} />
          </div>
          <div className="field">
            <label htmlFor="webhook-description">Description</label>
            <input id="webhook-description" name="description" type="text" maxLength={500} autoComplete="off" />
          </div>
        </CreateForm>
      </section>

      <DataTable
        testId="webhooks-table"
        caption="Subscriptions"
        wrapStyle={{ marginBottom: 16 }}
        rows={page.webhookSubscriptions}
        rowKey={(s) => s.id}
        empty="No subscriptions yet."
        columns={[
          {
            header: 'Receiver',
            cell: (s) => (
              <>
                <Link href={query({ subscription: s.id, message: null })} className="mono">
                  {s.url}
                </Link>
                {s.description && <div className="muted">{s.description}</div>}
              </>
            ),
          },
          {
            header: 'Events',
            className: 'mono',
            cell: (s) => (
              <>
                {s.eventTypes.join(', ')}
                {s.tags.length > 0 && <div className="muted">tags: {s.tags.join(', ')}</div>}
                {s.scoreThreshold !== null && <div className="muted">score &gt; {s.scoreThreshold}</div>}
              </>
            ),
          },
          { header: 'Created', cell: (s) => formatDateTime(s.createdAt, tz) },
          {
            header: 'Status',
            cell: (s) => (
              <>
                <StatusBadge status={s.enabled ? 'active' : 'disabled'} />
                {s.disabledReason === 'gone' && <div className="muted">receiver answered 410</div>}
              </>
            ),
          },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (s) => (
              <>
                <ConfirmAction
                  label={s.enabled ? 'Disable' : 'Enable'}
                  small
                  title={`${s.enabled ? 'Disable' : 'Enable'} ${s.url}?`}
                  action={toggleWebhookAction}
                  hidden={{ id: s.id, enable: s.enabled ? '0' : '1' }}
                  confirmLabel={s.enabled ? 'Disable' : 'Enable'}
                />{' '}
                <ConfirmAction
                  label="Delete"
                  small
                  title={`Delete ${s.url}?`}
                  description="Its pending messages are cancelled; the delivery log is kept."
                  action={deleteWebhookAction}
                  hidden={{ id: s.id }}
                  confirmLabel="Delete subscription"
                  tone="danger"
                />
              </>
            ),
          },
        ]}
      />

      <section aria-labelledby="messages">
        <h2 id="messages">Messages{subscription ? ` of ${subscription}` : ''}</h2>
        <p>
          {[null, ...STATUSES].map((s) => (
            <span key={s ?? 'all'}>
              <Link href={query({ status: s, message: null })} aria-current={s === status ? 'page' : undefined}>
                {s === 'dead' ? 'dead letters' : (s ?? 'all')}
              </Link>{' '}
            </span>
          ))}
          {subscription && <Link href={query({ subscription: null, message: null })}>every subscription</Link>}
        </p>
        <DataTable
          testId="webhook-messages-table"
          caption="Messages"
          rows={page.webhookMessages}
          rowKey={(m) => m.id}
          empty="No messages."
          columns={[
            { header: 'Message', className: 'mono', cell: (m) => <Link href={query({ message: m.id })}>{m.id}</Link> },
            { header: 'Type', className: 'mono', cell: (m) => m.type },
            { header: 'Created', cell: (m) => formatDateTime(m.createdAt, tz) },
            {
              header: 'Status',
              cell: (m) => (
                <>
                  <StatusBadge status={m.status} />
                  {m.status === 'pending' && <div className="muted">next {formatDateTime(m.nextAttemptAt, tz)}</div>}
                </>
              ),
            },
            { header: 'Attempts', cell: (m) => m.attempts },
            { header: 'Last answer', cell: (m) => m.lastStatus ?? '—' },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (m) => (
                <ConfirmAction
                  label="Redeliver"
                  small
                  title={`Send ${m.id} again?`}
                  description="It is sent now with the same webhook-id; the attempt is logged."
                  action={redeliverWebhookAction}
                  hidden={{ id: m.id }}
                  confirmLabel="Redeliver"
                />
              ),
            },
          ]}
        />
      </section>

      {attempts && (
        <section aria-labelledby="attempts" style={{ marginTop: 16 }}>
          <h2 id="attempts">Delivery log of {message}</h2>
          <DataTable
            testId="webhook-attempts-table"
            labelledBy="attempts"
            rows={attempts}
            rowKey={(a) => a.id}
            empty="No attempts yet."
            columns={[
              { header: '#', cell: (a) => a.attempt },
              { header: 'At', cell: (a) => formatDateTime(a.at, tz) },
              { header: 'Status', cell: (a) => a.status ?? 'no answer' },
              { header: 'Duration', cell: (a) => `${a.durationMs} ms` },
              { header: 'Trigger', cell: (a) => a.trigger },
              { header: 'Error', className: 'mono', cell: (a) => a.error ?? '' },
            ]}
          />
        </section>
      )}
    </FeedbackProvider>
  );
}
