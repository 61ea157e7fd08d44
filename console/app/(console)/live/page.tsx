import type { Metadata } from 'next';
import Link from 'next/link';
import { riskyThreshold } from '../../../lib/server/config';
import { withSession } from '../../../lib/server/session';
import { timeZone } from '../../../lib/server/time-zone';
import { listEvents } from '../../../lib/server/vigil/events';
import { formatDateTime } from '../../../lib/shared/format';
import { LiveFeed } from './live-feed';

export const metadata: Metadata = { title: 'Live' };

/**
 * The latest risky events, rendered on the server (readable and refreshable without JavaScript), then kept
 * current in the browser from the console's event stream (`eventAdded`).
 */
export default async function LivePage() {
  const tz = await timeZone();
  const minScore = riskyThreshold();
  const latest = await withSession((token) => listEvents(token, { minScore }, null, 50));
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
      <LiveFeed initial={latest.nodes} timeZone={tz} minScore={minScore} />
    </>
  );
}
