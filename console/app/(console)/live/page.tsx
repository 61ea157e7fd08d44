import type { Metadata } from 'next';
import Link from 'next/link';
import { riskyThreshold } from '../../../lib/server/config';
import { withSession } from '../../../lib/server/session';
import { timeZone } from '../../../lib/server/time-zone';
import { capabilities } from '../../../lib/server/vigil/capabilities';
import { listEvents } from '../../../lib/server/vigil/events';
import { formatDateTime } from '../../../lib/shared/format';
import { LiveFeed, LiveTable } from './live-feed';

export const metadata: Metadata = { title: 'Live' };

/**
 * The latest risky events, rendered on the server (readable and refreshable without JavaScript), then kept
 * current in the browser from the console's event stream when the server offers `eventAdded`.
 */
export default async function LivePage() {
  const tz = await timeZone();
  const minScore = riskyThreshold();
  const [latest, can] = await withSession((token) => Promise.all([listEvents(token, { minScore }, null, 50), capabilities(token)]));
  const rendered = new Date();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Live</h1>
          <p>
            Risky events as they arrive. Times in {tz}. <span className="small">Rendered {formatDateTime(rendered, tz)}.</span>
          </p>
        </div>
        <Link href="/live" className="btn btn-ghost btn-small" prefetch={false}>
          Refresh
        </Link>
      </div>
      {can.live ? (
        <LiveFeed initial={latest.nodes} timeZone={tz} minScore={minScore} />
      ) : (
        <>
          <div className="notice info" role="status">
            This Vigil server has no live feed (eventAdded) yet; Refresh shows the latest risky events.
          </div>
          <LiveTable events={latest.nodes} timeZone={tz} />
        </>
      )}
    </>
  );
}
