import Link from 'next/link';
import type { ReactNode } from 'react';
import type { EventRow } from '../lib/server/vigil/types';
import { deviceHref } from '../lib/shared/device-href';
import { formatDateTime } from '../lib/shared/format';
import { Score, Tags } from './badges';
import { DataTable } from './data-table';

const Missing = () => <span className="muted">—</span>;

/** Events, one a row, as the Events and Live pages list them (a plain component: server or client). */
export function EventsTable({
  events,
  timeZone,
  testId,
  caption,
  empty,
}: {
  events: EventRow[];
  timeZone: string;
  testId: string;
  caption: string;
  empty?: ReactNode;
}) {
  return (
    <DataTable
      testId={testId}
      caption={caption}
      rows={events}
      rowKey={(e) => e.id}
      rowData={(e) => ({ 'data-event-id': e.id })}
      empty={empty}
      columns={[
        { header: 'When', cell: (e) => formatDateTime(e.occurredAt, timeZone) },
        { header: 'Event', cell: (e) => e.name },
        { header: 'Identity', cell: (e) => e.identity ?? <Missing /> },
        {
          header: 'Device',
          cell: (e) =>
            e.deviceId ? (
              <Link className="mono" href={deviceHref(e.deviceId)}>
                {e.deviceId}
              </Link>
            ) : (
              <Missing />
            ),
        },
        { header: 'Score', numeric: true, cell: (e) => <Score value={e.riskScore} /> },
        { header: 'Tags', cell: (e) => <Tags tags={e.tags} /> },
        { header: 'IP', className: 'mono', cell: (e) => e.ip ?? <Missing /> },
      ]}
    />
  );
}
