import Link from 'next/link';
import type { EventRow } from '../lib/server/vigil/types';
import { deviceHref } from '../lib/shared/device-href';
import { formatDateTime } from '../lib/shared/format';
import { Score, Tags } from './badges';

/** Events, one a row, as the Events and Live pages list them (a plain component: server or client). */
export function EventsTable({ events, timeZone, testId, caption }: { events: EventRow[]; timeZone: string; testId: string; caption: string }) {
  return (
    <table className="data" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Identity</th>
          <th scope="col">Device</th>
          <th scope="col" className="num">
            Score
          </th>
          <th scope="col">Tags</th>
          <th scope="col">IP</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id} data-event-id={e.id}>
            <td>{formatDateTime(e.occurredAt, timeZone)}</td>
            <td>{e.name}</td>
            <td>{e.identity ?? <span className="muted">—</span>}</td>
            <td>
              {e.deviceId ? (
                <Link className="mono" href={deviceHref(e.deviceId)}>
                  {e.deviceId}
                </Link>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td className="num">
              <Score value={e.riskScore} />
            </td>
            <td>
              <Tags tags={e.tags} />
            </td>
            <td className="mono">{e.ip ?? <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
