import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge, Tags } from '../../../components/badges';
import { FilterForm } from '../../../components/filter-form';
import { Pager } from '../../../components/pager';
import { withSession } from '../../../lib/server/session';
import { DEVICE_PAGE_SIZE, listDevices, type DeviceFilter } from '../../../lib/server/vigil/devices';
import type { DeviceStatus, FacetValue } from '../../../lib/server/vigil/types';
import { formatCount, formatDateTime, formatRelative } from '../../../lib/shared/format';
import { readPage } from '../../../lib/shared/paging';

export const metadata: Metadata = { title: 'Devices' };

type Search = Promise<Record<string, string | string[] | undefined>>;

const statuses = ['active', 'deactivated', 'unregistered'] as const;
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 256) : undefined);

function FacetSelect({ id, label, name, value, choices, all }: { id: string; label: string; name: string; value?: string; choices: FacetValue[]; all: string }) {
  const known = choices.some((c) => c.value === value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        <option value="">{all}</option>
        {value && !known && <option value={value}>{value}</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.value} ({formatCount(c.count)})
          </option>
        ))}
      </select>
    </div>
  );
}

export default async function DevicesPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const values = {
    role: one(params.role),
    branch: one(params.branch),
    status: statuses.find((s) => s === params.status),
    user: one(params.user),
    tag: one(params.tag),
  };
  const filter: DeviceFilter = {
    ...(values.role && { role: values.role }),
    ...(values.branch && { branch: values.branch }),
    ...(values.status && { status: values.status.toUpperCase() as DeviceStatus }),
    ...(values.user && { userId: values.user }),
    ...(values.tag && { tag: values.tag }),
  };
  const page = readPage(params);
  const { devices, facets } = await withSession((token) => listDevices(token, filter, page.after));
  const filtered = Object.values(values).some(Boolean);
  const now = new Date();
  // Keyed by the filters so the form's defaults follow Back and Forward.
  const formKey = JSON.stringify(values);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Devices</h1>
          <p>Registered and seen devices, most recently active first.</p>
        </div>
      </div>
      <section className="panel" aria-label="Filters" style={{ marginBottom: 16 }}>
        <FilterForm path="/devices" label="Filter devices" key={formKey}>
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
            <label htmlFor="f-user">User id</label>
            <input id="f-user" name="user" type="search" defaultValue={values.user ?? ''} placeholder="exact user id" />
          </div>
          <div className="actions">
            <button type="submit" className="btn">
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

      <div className="table-wrap">
        <table className="data" data-testid="devices-table">
          <caption className="sr-only">Devices{filtered ? ' matching the filters' : ''}</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">Branch</th>
              <th scope="col">Status</th>
              <th scope="col">Current tags</th>
              <th scope="col">Last seen</th>
              <th scope="col">Registered</th>
            </tr>
          </thead>
          <tbody>
            {devices.nodes.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link href={`/devices/${encodeURIComponent(d.id)}`} className="mono">
                    {d.id}
                  </Link>
                </td>
                <td>{d.registration?.userId ?? <span className="muted">—</span>}</td>
                <td>{d.registration?.role ?? <span className="muted">—</span>}</td>
                <td>{d.registration?.branch ?? <span className="muted">—</span>}</td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>
                  <Tags tags={d.currentTags} />
                </td>
                <td title={formatDateTime(d.lastSeen)}>{formatRelative(d.lastSeen, now)}</td>
                <td>{formatDateTime(d.registration?.registeredAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {devices.nodes.length === 0 && <div className="empty">No device matches these filters.</div>}
      </div>
      <Pager
        path="/devices"
        filters={values}
        state={page}
        endCursor={devices.pageInfo.endCursor}
        hasNext={devices.pageInfo.hasNextPage}
        total={devices.totalCount}
        shown={devices.nodes.length}
        pageSize={DEVICE_PAGE_SIZE}
        noun="devices"
      />
    </>
  );
}
