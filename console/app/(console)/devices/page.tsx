import type { Metadata } from 'next';
import Link from 'next/link';
import { Score, StatusBadge, Tags } from '../../../components/badges';
import { type Column, DataTable } from '../../../components/data-table';
import { DownloadLink } from '../../../components/download-link';
import { FacetSelect } from '../../../components/facet-select';
import { FilterForm } from '../../../components/filter-form';
import { PageSizeSelect } from '../../../components/page-size-select';
import { Pager } from '../../../components/pager';
import { currentViewer, withSession } from '../../../lib/server/session';
import { timeZone } from '../../../lib/server/time-zone';
import { listDevices } from '../../../lib/server/vigil/devices';
import type { DeviceRow } from '../../../lib/server/vigil/types';
import { BULK_FORM } from '../../../lib/shared/bulk-state';
import { deviceFilter, deviceSort, readDeviceValues, sorts, statuses, type DeviceValues, type SortKey } from '../../../lib/shared/device-query';
import { formatDateTime, formatRelative } from '../../../lib/shared/format';
import { href, pageParams, readPage } from '../../../lib/shared/paging';
import { BulkDevices } from './bulk-devices';
import { SelectAllOnPage } from './select-all';
import { deviceHref } from '../../../lib/shared/device-href';

export const metadata: Metadata = { title: 'Devices' };

type Search = Promise<Record<string, string | string[] | undefined>>;

function SortHeading({ label, values, size, desc, asc }: { label: string; values: DeviceValues; size: number; desc: SortKey; asc: SortKey }) {
  const current = values.sort ?? 'last_seen_desc';
  const direction = current === desc ? 'descending' : current === asc ? 'ascending' : 'none';
  const next = current === desc ? asc : desc;
  return (
    <th scope="col" aria-sort={direction}>
      <Link href={href('/devices', { ...values, sort: next === 'last_seen_desc' ? undefined : next, ...pageParams({ after: null, page: 1, size }) })}>
        {label}
        <span aria-hidden="true">{direction === 'descending' ? ' ↓' : direction === 'ascending' ? ' ↑' : ''}</span>
        <span className="sr-only">, sort {next === desc ? 'descending' : 'ascending'}</span>
      </Link>
    </th>
  );
}

/** The bulk form's checkbox per row; its header selects every device on the page. */
const selectColumn: Column<DeviceRow> = {
  header: 'Select',
  className: 'check',
  headerCell: (
    <th scope="col" className="check">
      <SelectAllOnPage />
    </th>
  ),
  cell: (d) => <input type="checkbox" name="id" value={d.id} form={BULK_FORM} aria-label={`Select ${d.id}`} />,
};

const Missing = () => <span className="muted">—</span>;

export default async function DevicesPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const values = readDeviceValues(params);
  const page = readPage(params);
  const tz = await timeZone();
  const [viewer, { devices, facets }] = await Promise.all([
    currentViewer(),
    withSession((token) => listDevices(token, { filter: deviceFilter(values), sort: deviceSort(values), after: page.after, first: page.size })),
  ]);
  const filtered = Object.entries(values).some(([k, v]) => k !== 'sort' && v);
  const bulk = viewer.canManageDevices;
  const now = new Date();
  // Keyed by the filters so the form's defaults follow Back and Forward.
  const formKey = JSON.stringify({ ...values, size: page.size });
  const exportHref = href('/export/devices', { ...values, sort: undefined });

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Devices</h1>
          <p>Registered and seen devices. Times in {tz}.</p>
        </div>
        <DownloadLink href={exportHref} filename={`vigil-devices-${now.toISOString().slice(0, 10)}.csv`} label="Download CSV" />
      </div>
      <section className="panel" aria-label="Filters" style={{ marginBottom: 16 }}>
        <FilterForm path="/devices" label="Filter devices" key={formKey}>
          <div className="field">
            <label htmlFor="f-id">Device id starts with</label>
            <input id="f-id" name="id" type="search" defaultValue={values.id ?? ''} autoComplete="off" spellCheck={false} />
          </div>
          <div className="field">
            <label htmlFor="f-user">User id starts with</label>
            <input id="f-user" name="user" type="search" defaultValue={values.user ?? ''} autoComplete="off" spellCheck={false} />
          </div>
          <FacetSelect id="f-role" label="Role" name="role" value={values.role} choices={facets.roles} all="All roles" />
          <FacetSelect id="f-branch" label="Branch" name="branch" value={values.branch} choices={facets.branches} all="All branches" />
          <FacetSelect
            id="f-status"
            label="Status"
            name="status"
            value={values.status}
            choices={statuses.map((s) => ({ value: s, count: facets.statuses.find((f) => f.value === s)?.count ?? 0 }))}
            all="All statuses"
          />
          <FacetSelect id="f-tag" label="Current tag" name="tag" value={values.tag} choices={facets.tags} all="Any tag" />
          <div className="field">
            <label htmlFor="f-sort">Order</label>
            <select id="f-sort" name="sort" defaultValue={values.sort ?? ''}>
              {Object.entries(sorts).map(([k, s]) => (
                <option key={k} value={k === 'last_seen_desc' ? '' : k}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <PageSizeSelect id="f-size" size={page.size} />
          <div className="actions">
            <button type="submit" className="btn" id="f-apply">
              Apply
            </button>
            {filtered && (
              <Link href="/devices" className="btn btn-ghost">
                Clear
              </Link>
            )}
          </div>
        </FilterForm>
      </section>

      {bulk && <BulkDevices pageIds={devices.nodes.map((d) => d.id)} />}

      <DataTable
        testId="devices-table"
        caption={`Devices${filtered ? ' matching the filters' : ''}`}
        rows={devices.nodes}
        rowKey={(d) => d.id}
        empty="No device matches these filters."
        columns={[
          ...(bulk ? [selectColumn] : []),
          {
            header: 'Device',
            cell: (d) => (
              <Link href={deviceHref(d.id)} className="mono">
                {d.id}
              </Link>
            ),
          },
          { header: 'User', cell: (d) => d.registration?.userId ?? <Missing /> },
          { header: 'Role', cell: (d) => d.registration?.role ?? <Missing /> },
          { header: 'Branch', cell: (d) => d.registration?.branch ?? <Missing /> },
          { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
          {
            header: 'Risk',
            numeric: true,
            headerCell: <SortHeading label="Risk" values={values} size={page.size} desc="risk_desc" asc="risk_asc" />,
            cell: (d) => <Score value={d.riskScore} />,
          },
          { header: 'Current tags', cell: (d) => <Tags tags={d.currentTags} /> },
          {
            header: 'Last seen',
            headerCell: <SortHeading label="Last seen" values={values} size={page.size} desc="last_seen_desc" asc="last_seen_asc" />,
            title: (d) => formatDateTime(d.lastSeen, tz),
            cell: (d) => formatRelative(d.lastSeen, now),
          },
        ]}
      />
      <Pager
        path="/devices"
        filters={{ ...values }}
        state={page}
        endCursor={devices.pageInfo.endCursor}
        hasNext={devices.pageInfo.hasNextPage}
        total={devices.totalCount}
        shown={devices.nodes.length}
        noun="devices"
      />
    </>
  );
}
