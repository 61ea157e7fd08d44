import type { Metadata } from 'next';
import Link from 'next/link';
import { Score } from '../../../components/badges';
import { TagsOverTimeChart, TagTotalsChart } from '../../../components/charts';
import { type Column, DataTable } from '../../../components/data-table';
import { FilterForm } from '../../../components/filter-form';
import { RangeSelect } from '../../../components/range-select';
import { withSession } from '../../../lib/server/session';
import { timeZone } from '../../../lib/server/time-zone';
import { deviceStats, eventStats } from '../../../lib/server/vigil/events';
import type { EventStatsRow } from '../../../lib/server/vigil/types';
import type { DeviceGroupKey, EventFilter, EventGroupKey, TimeBucket } from '../../../lib/server/vigil/generated';
import { formatBucketLabel, formatCount, formatDateTime } from '../../../lib/shared/format';
import { rangeBounds, rangeKey, ranges } from '../../../lib/shared/ranges';
import { deviceTotals, eventGroupField, stackedSeries } from '../../../lib/shared/stats-data';

export const metadata: Metadata = { title: 'Reports' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 256) : undefined);
const pick = <T extends string>(value: unknown, choices: readonly T[], fallback: T): T => choices.find((c) => c === value) ?? fallback;

const eventKeys = ['TAG', 'EVENT', 'BRANCH', 'ROLE', 'USER'] as const satisfies readonly EventGroupKey[];
const deviceKeys = ['STATUS', 'BRANCH', 'ROLE', 'TAG'] as const satisfies readonly DeviceGroupKey[];
const buckets = ['HOUR', 'DAY', 'WEEK'] as const satisfies readonly TimeBucket[];
const keyLabels: Record<EventGroupKey | DeviceGroupKey, string> = {
  TAG: 'Tag',
  EVENT: 'Event name',
  BRANCH: 'Branch',
  ROLE: 'Role',
  USER: 'Registered user',
  STATUS: 'Status',
};
const bucketLabels: Record<TimeBucket, string> = { HOUR: 'Hour', DAY: 'Day', WEEK: 'Week' };

function Select<T extends string>({
  id,
  name,
  label,
  value,
  choices,
  labels,
}: {
  id: string;
  name: string;
  label: string;
  value: T;
  choices: readonly T[];
  labels: Record<T, string>;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value.toLowerCase()}>
        {choices.map((c) => (
          <option key={c} value={c.toLowerCase()}>
            {labels[c]}
          </option>
        ))}
      </select>
    </div>
  );
}

export default async function ReportsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const tz = await timeZone();
  const range = rangeKey(params.range);
  const by = pick(one(params.by)?.toUpperCase(), eventKeys, 'TAG');
  const bucket = pick(one(params.bucket)?.toUpperCase(), buckets, range === '24h' ? 'HOUR' : 'DAY');
  const devicesBy = pick(one(params.devices_by)?.toUpperCase(), deviceKeys, 'STATUS');
  const values = { branch: one(params.branch), role: one(params.role), tag: one(params.tag) };
  const { from, to } = rangeBounds(range);
  const filter: EventFilter = { from: from.toISOString(), to: to.toISOString(), ...values };

  const head = (
    <div className="page-head">
      <div>
        <h1>Reports</h1>
        <p>
          Events grouped by time and by {keyLabels[by].toLowerCase()}, and devices by {keyLabels[devicesBy].toLowerCase()}. Times in {tz}.
        </p>
      </div>
    </div>
  );
  const [series, totals, devices] = await withSession((token) =>
    Promise.all([
      eventStats(token, { filter, groupBy: [by], bucket, timeZone: tz }),
      eventStats(token, { filter, groupBy: [by], timeZone: tz }),
      deviceStats(token, { filter: { ...(values.branch && { branch: values.branch }), ...(values.role && { role: values.role }) }, groupBy: [devicesBy] }),
    ]),
  );
  const chart = stackedSeries(series, by, bucket, tz);
  const field = eventGroupField[by];
  const deviceLabel = (r: (typeof devices)[number]) =>
    String((devicesBy === 'STATUS' ? r.status?.toLowerCase() : r[devicesBy.toLowerCase() as 'branch' | 'role' | 'tag']) ?? '(none)');
  const sortedTotals = [...totals].sort((a, b) => b.count - a.count);
  // The totals and the per-bucket series are the same rows, one without the time bucket: they share these columns.
  const group: Column<EventStatsRow> = { header: keyLabels[by], cell: (r) => r[field] ?? <span className="muted">(none)</span> };
  const events: Column<EventStatsRow> = { header: 'Events', numeric: true, cell: (r) => formatCount(r.count) };
  const devicesCount: Column<EventStatsRow> = { header: 'Devices', numeric: true, cell: (r) => formatCount(r.distinctDevices) };

  return (
    <>
      {head}
      <section className="panel" aria-label="Report settings" style={{ marginBottom: 16 }}>
        <FilterForm path="/reports" label="Report settings" key={JSON.stringify(params)}>
          <RangeSelect id="r-range" value={range} />
          <Select id="r-bucket" name="bucket" label="Per" value={bucket} choices={buckets} labels={bucketLabels} />
          <Select id="r-by" name="by" label="Events by" value={by} choices={eventKeys} labels={keyLabels} />
          <Select id="r-devices-by" name="devices_by" label="Devices by" value={devicesBy} choices={deviceKeys} labels={keyLabels} />
          <div className="field">
            <label htmlFor="r-branch">Branch</label>
            <input id="r-branch" name="branch" type="search" defaultValue={values.branch ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="r-role">Role</label>
            <input id="r-role" name="role" type="search" defaultValue={values.role ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="r-tag">Tag</label>
            <input id="r-tag" name="tag" type="search" defaultValue={values.tag ?? ''} />
          </div>
          <div className="actions">
            <button type="submit" className="btn" id="r-apply">
              Apply
            </button>
            <Link href="/reports" className="btn btn-ghost">
              Reset
            </Link>
          </div>
        </FilterForm>
      </section>

      <div className="grid grid-2" style={{ marginBottom: 16 }}>
        <section className="panel" aria-labelledby="rep-events">
          <h2 id="rep-events">
            Events per {bucketLabels[bucket].toLowerCase()} by {keyLabels[by].toLowerCase()}
          </h2>
          {chart.data.length ? (
            <TagsOverTimeChart
              data={chart.data}
              tags={chart.keys}
              title={`Events per ${bucketLabels[bucket].toLowerCase()}, stacked by ${keyLabels[by].toLowerCase()}`}
            />
          ) : (
            <p className="muted">No events in this range.</p>
          )}
        </section>
        <section className="panel" aria-labelledby="rep-devices">
          <h2 id="rep-devices">Devices by {keyLabels[devicesBy].toLowerCase()}</h2>
          {devices.length ? (
            <TagTotalsChart data={deviceTotals(devices, deviceLabel)} title={`Devices by ${keyLabels[devicesBy].toLowerCase()}`} />
          ) : (
            <p className="muted">No devices.</p>
          )}
        </section>
      </div>

      <section className="panel" aria-labelledby="rep-totals" style={{ marginBottom: 16 }}>
        <h2 id="rep-totals">
          {ranges[range].label}, by {keyLabels[by].toLowerCase()}
        </h2>
        <DataTable
          testId="event-totals"
          labelledBy="rep-totals"
          rows={sortedTotals}
          rowKey={(r) => r[field] ?? '(none)'}
          empty="No events in this range."
          columns={[
            group,
            events,
            { header: 'Mean score', numeric: true, cell: (r) => <Score value={r.meanScore} /> },
            { header: 'Max score', numeric: true, cell: (r) => <Score value={r.maxScore} /> },
            devicesCount,
          ]}
        />
      </section>

      <div className="grid grid-2">
        <section className="panel" aria-labelledby="rep-series">
          <h2 id="rep-series">Per {bucketLabels[bucket].toLowerCase()}</h2>
          <DataTable
            testId="event-series"
            labelledBy="rep-series"
            rows={series}
            rowKey={(r) => `${r.bucket}|${r[field]}`}
            columns={[
              {
                header: `${bucketLabels[bucket]} from`,
                title: (r) => formatDateTime(r.bucket, tz),
                cell: (r) => (r.bucket ? formatBucketLabel(r.bucket, bucket, tz) : '—'),
              },
              group,
              events,
              { header: 'Mean', numeric: true, cell: (r) => <Score value={r.meanScore} /> },
              devicesCount,
            ]}
          />
        </section>
        <section className="panel" aria-labelledby="rep-device-table">
          <h2 id="rep-device-table">Devices by {keyLabels[devicesBy].toLowerCase()}</h2>
          <DataTable
            testId="device-stats"
            labelledBy="rep-device-table"
            rows={deviceTotals(devices, deviceLabel)}
            rowKey={(r) => r.tag}
            columns={[
              { header: keyLabels[devicesBy], cell: (r) => r.tag },
              { header: 'Devices', numeric: true, cell: (r) => formatCount(r.count) },
            ]}
          />
        </section>
      </div>
    </>
  );
}
