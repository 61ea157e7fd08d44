import type { Metadata } from 'next';
import Link from 'next/link';
import { EventsAndRiskChart, TagsOverTimeChart, TagTotalsChart } from '../../../components/charts';
import { FacetSelect } from '../../../components/facet-select';
import { FilterForm } from '../../../components/filter-form';
import { PageSizeSelect } from '../../../components/page-size-select';
import { EventsTable } from '../../../components/events-table';
import { Pager } from '../../../components/pager';
import { RangeSelect } from '../../../components/range-select';
import { withSession } from '../../../lib/server/session';
import { getFacets } from '../../../lib/server/vigil/devices';
import { listEvents, riskSummary, type EventFilter } from '../../../lib/server/vigil/events';
import { tagSeries, tagTotals, timeSeries } from '../../../lib/shared/chart-data';
import { formatCount } from '../../../lib/shared/format';
import { readPage } from '../../../lib/shared/paging';
import { rangeBounds, rangeKey, ranges } from '../../../lib/shared/ranges';
import { timeZone } from '../../../lib/server/time-zone';

export const metadata: Metadata = { title: 'Events' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 256) : undefined);

export default async function EventsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const tz = await timeZone();
  const range = rangeKey(params.range);
  const minScoreText = one(params.min_score);
  const minScore = minScoreText !== undefined && Number.isFinite(Number(minScoreText)) ? Math.min(1, Math.max(0, Number(minScoreText))) : undefined;
  const values = {
    range: range === '24h' ? undefined : range,
    event: one(params.event),
    identity: one(params.identity),
    device: one(params.device),
    tag: one(params.tag),
    role: one(params.role),
    branch: one(params.branch),
    user: one(params.user),
    handprint: one(params.handprint),
    min_score: minScore === undefined ? undefined : String(minScore),
    // The range bounds the event's own time unless asked otherwise: an offline event can arrive days after it happened.
    time: one(params.time) === 'received' ? 'received' : undefined,
  };
  const { from, to, bucket } = rangeBounds(range);
  const filter: EventFilter = {
    from: from.toISOString(),
    ...(values.event && { event: values.event }),
    ...(values.identity && { identity: values.identity }),
    ...(values.device && { deviceId: values.device }),
    ...(values.tag && { tag: values.tag }),
    ...(values.role && { role: values.role }),
    ...(values.branch && { branch: values.branch }),
    ...(values.user && { userId: values.user }),
    ...(values.handprint && { handprintId: values.handprint }),
    ...(minScore !== undefined && { minScore }),
    ...(values.time && { timeField: 'RECEIVED' }),
  };
  const page = readPage(params);
  const [events, buckets, facets] = await withSession((token) =>
    Promise.all([listEvents(token, filter, page.after, page.size), riskSummary(token, from, to, bucket), getFacets(token)]),
  );
  const series = timeSeries(buckets, bucket, tz);
  const perTag = tagSeries(buckets, bucket, undefined, tz);
  const totals = tagTotals(buckets);
  const eventCount = buckets.reduce((n, b) => n + b.eventCount, 0);
  const filtered = Object.entries(values).some(([k, v]) => k !== 'range' && k !== 'time' && v);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Events</h1>
          <p>
            {ranges[range].label}: {formatCount(eventCount)} events. Charts cover every event in the range; the table follows the filters.
          </p>
        </div>
      </div>

      <div className="grid grid-2" style={{ marginBottom: 16 }}>
        <section className="panel" aria-labelledby="c1">
          <h2 id="c1">Events and mean risk over time</h2>
          <EventsAndRiskChart data={series} title={`Events per ${bucket === 'HOUR' ? 'hour' : 'day'} and their mean risk score`} />
        </section>
        <section className="panel" aria-labelledby="c2">
          <h2 id="c2">Tags over time</h2>
          {perTag.tags.length ? (
            <TagsOverTimeChart data={perTag.data} tags={perTag.tags} title="Tagged events per bucket, by tag" />
          ) : (
            <p className="muted">No tagged events in this range.</p>
          )}
        </section>
      </div>
      {totals.length > 0 && (
        <section className="panel" aria-labelledby="c3" style={{ marginBottom: 16 }}>
          <h2 id="c3">Events per tag</h2>
          <TagTotalsChart data={totals} title="Events per tag over the range" />
        </section>
      )}

      <section className="panel" aria-label="Filters" style={{ marginBottom: 16 }}>
        <FilterForm path="/events" label="Filter events" key={JSON.stringify({ ...values, size: page.size })}>
          <RangeSelect id="e-range" value={range} />
          <div className="field">
            <label htmlFor="e-time">Range of</label>
            <select id="e-time" name="time" defaultValue={values.time ?? ''}>
              <option value="">Event time</option>
              <option value="received">Received time</option>
            </select>
          </div>
          <FacetSelect id="e-tag" label="Tag" name="tag" value={values.tag} choices={facets.tags} all="Any tag" />
          <FacetSelect id="e-role" label="Role" name="role" value={values.role} choices={facets.roles} all="All roles" />
          <FacetSelect id="e-branch" label="Branch" name="branch" value={values.branch} choices={facets.branches} all="All branches" />
          <div className="field">
            <label htmlFor="e-event">Event name</label>
            <input id="e-event" name="event" type="search" defaultValue={values.event ?? ''} placeholder="login" />
          </div>
          <div className="field">
            <label htmlFor="e-identity">Identity</label>
            <input id="e-identity" name="identity" type="search" defaultValue={values.identity ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="e-user">Registered to</label>
            <input id="e-user" name="user" type="search" defaultValue={values.user ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="e-device">Device id</label>
            <input id="e-device" name="device" type="search" defaultValue={values.device ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="e-handprint">Handprint</label>
            <input id="e-handprint" name="handprint" type="search" defaultValue={values.handprint ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="e-score">Minimum score</label>
            <input id="e-score" name="min_score" type="number" min={0} max={1} step={0.05} defaultValue={values.min_score ?? ''} />
          </div>
          <PageSizeSelect id="e-size" size={page.size} />
          <div className="actions">
            <button type="submit" className="btn" id="e-apply">
              Apply
            </button>
            {(filtered || values.range) && (
              <Link href="/events" className="btn btn-ghost">
                Clear
              </Link>
            )}
          </div>
        </FilterForm>
      </section>

      <EventsTable
        events={events.nodes}
        timeZone={tz}
        testId="events-table"
        caption="Events, newest first"
        empty="No event matches these filters in this range."
      />
      <Pager
        path="/events"
        filters={values}
        state={page}
        endCursor={events.pageInfo.endCursor}
        hasNext={events.pageInfo.hasNextPage}
        total={events.totalCount}
        shown={events.nodes.length}
        noun="events"
      />
    </>
  );
}
