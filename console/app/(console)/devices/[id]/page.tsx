import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Score, StatusBadge, Tags } from '../../../../components/badges';
import { ScoreOverTimeChart } from '../../../../components/charts';
import { DataTable } from '../../../../components/data-table';
import { FeedbackProvider } from '../../../../components/feedback';
import { currentViewer, withSession } from '../../../../lib/server/session';
import { getDevice } from '../../../../lib/server/vigil/devices';
import type { AuditRecord } from '../../../../lib/server/vigil/types';
import { deviceIdFrom } from '../../../../lib/shared/device-href';
import { formatDateTime, formatRelative } from '../../../../lib/shared/format';
import { timeZone } from '../../../../lib/server/time-zone';
import { DeviceActions } from './device-actions';

type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

// Next has decoded the segment once already; decoding it again broke ids with `%`.
const idOf = async (params: Params, searchParams: Search) => deviceIdFrom((await params).id, (await searchParams).id);

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: Search }): Promise<Metadata> {
  return { title: `Device ${await idOf(params, searchParams)}` };
}

const actionLabels: Record<AuditRecord['action'], string> = {
  REGISTER: 'Registered',
  REGISTER_CONFLICT: 'Refused registration (other user)',
  DEACTIVATE: 'Deactivated',
  REACTIVATE: 'Reactivated',
  TRANSFER: 'Transferred',
};

/** What a bound key's attestation proved (README, "Device binding"). */
const attestationLabels: Record<string, string> = {
  strongbox: 'StrongBox-backed key',
  hardware: 'Hardware-backed key (TEE)',
  software: 'Software key',
  unverified: 'Key with unverified attestation',
};

function Value({ children }: { children: React.ReactNode }) {
  return children === null || children === undefined || children === '' ? <span className="muted">—</span> : <>{children}</>;
}

export default async function DevicePage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const id = await idOf(params, searchParams);
  const tz = await timeZone();
  const [viewer, device] = await Promise.all([currentViewer(), withSession((token) => getDevice(token, id))]);
  if (!device) notFound();
  const reg = device.registration;
  const now = new Date();
  const scores = [...device.recentEvents].reverse().map((e) => ({ label: formatDateTime(e.occurredAt, tz).slice(5, 16), score: e.riskScore }));
  const metadata = Object.entries(reg?.metadata ?? {});

  return (
    <FeedbackProvider>
      <div className="page-head">
        <div>
          <p className="small" style={{ margin: 0 }}>
            <Link href="/devices">← Devices</Link>
          </p>
          <h1 className="row">
            <span className="mono" style={{ fontSize: 20 }}>
              {device.id}
            </span>{' '}
            <StatusBadge status={device.status} />
          </h1>
          <p>
            Last seen {formatRelative(device.lastSeen, now)} · first seen {formatDateTime(device.firstSeen, tz)}
          </p>
        </div>
        {viewer.canManageDevices && device.status !== 'UNREGISTERED' && (
          <DeviceActions deviceId={device.id} status={device.status} userId={reg?.userId ?? ''} />
        )}
      </div>

      <div className="grid grid-2">
        <section className="panel" aria-labelledby="reg-h">
          <h2 id="reg-h">Registration</h2>
          {reg ? (
            <dl className="facts">
              <dt>User</dt>
              <dd data-testid="registered-user">{reg.userId}</dd>
              <dt>Role</dt>
              <dd>
                <Value>{reg.role}</Value>
              </dd>
              <dt>Branch</dt>
              <dd>
                <Value>{reg.branch}</Value>
              </dd>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={reg.status} />
              </dd>
              <dt>Registered</dt>
              <dd>{formatDateTime(reg.registeredAt, tz)}</dd>
              <dt>User since</dt>
              <dd>{formatDateTime(reg.associatedSince, tz)}</dd>
              {reg.status === 'DEACTIVATED' && (
                <>
                  <dt>Deactivated</dt>
                  <dd>
                    {formatDateTime(reg.deactivatedAt, tz)}
                    {reg.deactivatedBy ? ` by ${reg.deactivatedBy}` : ''}
                  </dd>
                  <dt>Reason</dt>
                  <dd data-testid="deactivation-reason">
                    <Value>{reg.deactivationReason}</Value>
                  </dd>
                </>
              )}
            </dl>
          ) : (
            <p className="muted">This device is not registered to a user.</p>
          )}
          <h3 style={{ marginTop: 16 }}>Metadata</h3>
          {metadata.length ? (
            <dl className="facts">
              {metadata.map(([k, v]) => (
                <div key={k} style={{ display: 'contents' }}>
                  <dt className="mono">{k}</dt>
                  <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="muted">None.</p>
          )}
        </section>

        <section className="panel" aria-labelledby="risk-h">
          <h2 id="risk-h">Risk</h2>
          <dl className="facts" style={{ marginBottom: 12 }}>
            <dt>Current tags</dt>
            <dd data-testid="current-tags">
              <Tags tags={device.currentTags} />
            </dd>
            <dt>Latest score</dt>
            <dd>
              <Score value={device.recentEvents[0]?.riskScore ?? null} />
            </dd>
            <dt>Handprint</dt>
            <dd className="mono">
              <Value>{device.handprintId}</Value>
            </dd>
            <dt>Model / OS</dt>
            <dd>
              <Value>{[device.model, device.osVersion].filter(Boolean).join(' · ')}</Value>
            </dd>
            <dt>Device key</dt>
            <dd data-testid="device-key">
              {device.binding ? (
                <>
                  {attestationLabels[device.binding.attestation] ?? device.binding.attestation}
                  {device.binding.attestationProblem ? ` (${device.binding.attestationProblem.replaceAll('_', ' ')})` : ''}, bound{' '}
                  {formatDateTime(device.binding.boundAt, tz)} · <span className="mono">{device.binding.keyId.slice(0, 12)}…</span>
                </>
              ) : (
                <span className="muted">Not bound: events are not held to a device key.</span>
              )}
            </dd>
          </dl>
          {scores.length > 1 ? (
            <ScoreOverTimeChart data={scores} title={`Risk score of the last ${scores.length} events of this device`} />
          ) : (
            <p className="muted">Not enough events for a chart yet.</p>
          )}
        </section>
      </div>

      <section className="panel" aria-labelledby="events-h" style={{ marginTop: 16 }}>
        <h2 id="events-h">Recent events</h2>
        {device.recentEvents.length === 0 ? (
          <p className="muted">No events from this device yet.</p>
        ) : (
          <DataTable
            labelledBy="events-h"
            rows={device.recentEvents}
            rowKey={(e) => e.id}
            columns={[
              { header: 'When', cell: (e) => formatDateTime(e.occurredAt, tz) },
              { header: 'Event', cell: (e) => e.name },
              { header: 'Identity', cell: (e) => <Value>{e.identity}</Value> },
              { header: 'Score', numeric: true, cell: (e) => <Score value={e.riskScore} /> },
              { header: 'Tags', cell: (e) => <Tags tags={e.tags} /> },
              { header: 'IP', className: 'mono', cell: (e) => <Value>{e.ip}</Value> },
              {
                header: 'Details',
                className: 'wrap',
                cell: (e) => (
                  <details className="event-details">
                    <summary>Insights</summary>
                    <pre>{JSON.stringify({ event_id: e.id, handprint_id: e.handprintId, user_agent: e.userAgent, properties: e.properties }, null, 2)}</pre>
                  </details>
                ),
              },
            ]}
          />
        )}
      </section>

      <section className="panel" aria-labelledby="audit-h" style={{ marginTop: 16 }}>
        <h2 id="audit-h">Audit history</h2>
        {device.history.length === 0 ? (
          <p className="muted">No registry changes.</p>
        ) : (
          <DataTable
            testId="audit-table"
            labelledBy="audit-h"
            rows={device.history}
            rowKey={(a) => a.id}
            columns={[
              { header: 'When', cell: (a) => formatDateTime(a.at, tz) },
              { header: 'Action', cell: (a) => actionLabels[a.action] ?? a.action },
              {
                header: 'User',
                cell: (a) =>
                  a.fromUser && a.toUser && a.fromUser !== a.toUser ? (
                    <>
                      {a.fromUser} → {a.toUser}
                    </>
                  ) : (
                    <Value>{a.toUser ?? a.fromUser}</Value>
                  ),
              },
              { header: 'Reason', className: 'wrap', cell: (a) => <Value>{a.reason}</Value> },
              { header: 'By', cell: (a) => <Value>{a.by}</Value> },
              {
                header: 'Authenticated as',
                cell: (a) => (
                  <>
                    {a.actor.name} <span className="muted small">({a.actor.kind.replace('_', ' ')})</span>
                  </>
                ),
              },
            ]}
          />
        )}
      </section>
    </FeedbackProvider>
  );
}
