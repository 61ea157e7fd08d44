'use client';

import { useEffect, useRef, useState } from 'react';
import type { EventRow } from '../../../lib/server/vigil/types';
import { formatScore } from '../../../lib/shared/format';
import { EventsTable } from '../../../components/events-table';

const KEEP = 200;

type Status = { state: 'connecting' } | { state: 'live' } | { state: 'ended'; message: string };

/**
 * Risky events as they arrive, newest first, over the console's Server-Sent Events route. Pause keeps the list
 * still for reading while new events are counted and held; Resume shows them. Replaces the server-rendered list
 * it starts from.
 */
export function LiveFeed({ initial, timeZone, minScore }: { initial: EventRow[]; timeZone: string; minScore: number }) {
  const [events, setEvents] = useState<EventRow[]>(initial);
  const [held, setHeld] = useState<EventRow[]>([]);
  const [paused, setPaused] = useState(false);
  const [status, setStatus] = useState<Status>({ state: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    const source = new EventSource(`/live/stream?min_score=${minScore}`);
    source.addEventListener('ready', () => setStatus({ state: 'live' }));
    source.addEventListener('event', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as EventRow;
      if (pausedRef.current) setHeld((h) => [event, ...h].slice(0, KEEP));
      else setEvents((list) => [event, ...list.filter((e) => e.id !== event.id)].slice(0, KEEP));
    });
    source.addEventListener('problem', (message) => {
      source.close();
      setStatus({ state: 'ended', message: (JSON.parse((message as MessageEvent<string>).data) as { message: string }).message });
    });
    source.onerror = () => setStatus((s) => (s.state === 'ended' ? s : { state: 'connecting' }));
    return () => source.close();
  }, [minScore, attempt]);

  function toggle() {
    if (paused) {
      setEvents((list) => [...held, ...list].slice(0, KEEP));
      setHeld([]);
    }
    setPaused(!paused);
  }

  return (
    <section aria-labelledby="live-h">
      <div className="live-status">
        <h2 id="live-h" style={{ margin: 0 }}>
          Risky events, score ≥ {formatScore(minScore)}
        </h2>
        <span role="status" aria-live="polite" data-testid="live-status" className="muted">
          {status.state === 'live' && (paused ? `Paused · ${held.length} new` : 'Live')}
          {status.state === 'connecting' && 'Connecting…'}
          {status.state === 'ended' && `Stopped: ${status.message}`}
        </span>
        {status.state === 'ended' ? (
          <button type="button" className="btn btn-small" onClick={() => (setStatus({ state: 'connecting' }), setAttempt((n) => n + 1))}>
            Reconnect
          </button>
        ) : (
          <button type="button" className="btn btn-small" aria-pressed={paused} onClick={toggle}>
            {paused ? `Resume (${held.length} new)` : 'Pause'}
          </button>
        )}
      </div>
      <LiveTable events={events} timeZone={timeZone} />
    </section>
  );
}

export function LiveTable({ events, timeZone }: { events: EventRow[]; timeZone: string }) {
  if (events.length === 0) return <div className="empty">No risky events yet.</div>;
  return <EventsTable events={events} timeZone={timeZone} testId="live-table" caption="Risky events, newest first" />;
}
