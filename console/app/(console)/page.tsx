import type { Metadata } from 'next';
import Link from 'next/link';
import { Tags } from '../../components/badges';
import { EventsAndRiskChart, StatusPie } from '../../components/charts';
import { riskyThreshold } from '../../lib/server/config';
import { withSession } from '../../lib/server/session';
import { getFacets } from '../../lib/server/vigil/devices';
import { riskSummary, riskyShare } from '../../lib/server/vigil/events';
import { tagTotals, timeSeries } from '../../lib/shared/chart-data';
import { formatCount, formatPercent, formatScore } from '../../lib/shared/format';
import { rangeBounds } from '../../lib/shared/ranges';
import { timeZone } from '../../lib/server/time-zone';

export const metadata: Metadata = { title: 'Overview' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function OverviewPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const threshold = riskyThreshold();
  const now = new Date();
  const day = rangeBounds('24h', now);
  const week = new Date(now.getTime() - 7 * 86_400_000);
  const [facets, buckets, share24, share7] = await withSession((token) =>
    Promise.all([
      getFacets(token),
      riskSummary(token, day.from, day.to, day.bucket),
      riskyShare(token, new Date(now.getTime() - 86_400_000), threshold),
      riskyShare(token, week, threshold),
    ]),
  );
  const count = (status: string) => facets.statuses.find((s) => s.value === status)?.count ?? 0;
  const statusData = ['active', 'deactivated', 'unregistered'].map((status) => ({ status, count: count(status) }));
  const total = statusData.reduce((n, s) => n + s.count, 0);
  const series = timeSeries(buckets, day.bucket, await timeZone());
  const topTags = tagTotals(buckets).slice(0, 8);
  const events24 = buckets.reduce((n, b) => n + b.eventCount, 0);
  const scored = buckets.filter((b) => b.meanScore !== null);
  const mean24 = events24 ? scored.reduce((s, b) => s + (b.meanScore ?? 0) * b.eventCount, 0) / events24 : null;

  return (
    <>
      {params.denied && (
        <div className="notice warn" role="status">
          That page is for admins only.
        </div>
      )}
      <div className="page-head">
        <div>
          <h1>Overview</h1>
          <p>Devices by registry state, and how risky the last day of events was.</p>
        </div>
      </div>

      <div className="grid grid-4" style={{ marginBottom: 16 }} data-testid="device-counts">
        <Link href="/devices" className="stat" style={{ color: 'inherit', textDecoration: 'none' }}>
          <div className="label">Devices</div>
          <div className="value">{formatCount(total)}</div>
          <div className="hint">registered or seen</div>
        </Link>
        <Link href="/devices?status=active" className="stat" style={{ color: 'inherit', textDecoration: 'none' }}>
          <div className="label">Active</div>
          <div className="value" style={count('active') ? { color: 'var(--ok)' } : undefined}>
            {formatCount(count('active'))}
          </div>
          <div className="hint">registered and active</div>
        </Link>
        <Link href="/devices?status=deactivated" className="stat" style={{ color: 'inherit', textDecoration: 'none' }}>
          <div className="label">Deactivated</div>
          <div className="value" style={count('deactivated') ? { color: 'var(--danger)' } : undefined}>
            {formatCount(count('deactivated'))}
          </div>
          <div className="hint">to be blocked by callers</div>
        </Link>
        <Link href="/devices?status=unregistered" className="stat" style={{ color: 'inherit', textDecoration: 'none' }}>
          <div className="label">Unregistered</div>
          <div className="value">{formatCount(count('unregistered'))}</div>
          <div className="hint">seen in events only</div>
        </Link>
      </div>

      <div className="grid grid-4" style={{ marginBottom: 16 }} data-testid="risk-share">
        <div className="stat">
          <div className="label">Risky events, 24 h</div>
          <div className="value">{formatPercent(share24.total ? share24.risky / share24.total : null)}</div>
          <div className="hint">
            {formatCount(share24.risky)} of {formatCount(share24.total)} scored ≥ {formatScore(threshold)}
          </div>
        </div>
        <div className="stat">
          <div className="label">Risky events, 7 days</div>
          <div className="value">{formatPercent(share7.total ? share7.risky / share7.total : null)}</div>
          <div className="hint">
            {formatCount(share7.risky)} of {formatCount(share7.total)} scored ≥ {formatScore(threshold)}
          </div>
        </div>
        <div className="stat">
          <div className="label">Events, 24 h</div>
          <div className="value">{formatCount(events24)}</div>
          <div className="hint">mean risk {formatScore(mean24)}</div>
        </div>
      </div>

      <div className="grid grid-2">
        <section className="panel" aria-labelledby="ov-events">
          <h2 id="ov-events">Events and mean risk, last 24 hours</h2>
          <EventsAndRiskChart data={series} title="Events per hour and their mean risk score, last 24 hours" />
        </section>
        <section className="panel" aria-labelledby="ov-status">
          <h2 id="ov-status">Devices by status</h2>
          {total ? <StatusPie data={statusData.filter((s) => s.count > 0)} title="Devices by registry status" /> : <p className="muted">No devices yet.</p>}
          <h3 style={{ marginTop: 12 }}>Most frequent tags, 24 h</h3>
          {topTags.length ? (
            <ul style={{ margin: 0, paddingLeft: 0, listStyle: 'none', display: 'grid', gap: 4 }}>
              {topTags.map((t) => (
                <li key={t.tag} className="row" style={{ justifyContent: 'space-between' }}>
                  <Link href={`/events?tag=${encodeURIComponent(t.tag)}`}>
                    <Tags tags={[t.tag]} />
                  </Link>
                  <span className="muted">{formatCount(t.count)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No tagged events.</p>
          )}
        </section>
      </div>
    </>
  );
}
