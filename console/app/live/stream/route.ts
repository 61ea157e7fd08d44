import type { NextRequest } from 'next/server';
import { riskyThreshold } from '../../../lib/server/config';
import { subscribeEvents } from '../../../lib/server/live/subscribe';
import { SESSION_COOKIE } from '../../../lib/shared/session-cookie';

export const dynamic = 'force-dynamic';

const HEARTBEAT_MS = 15_000;

/**
 * The Live page's feed as Server-Sent Events: this process subscribes to Vigil's `eventAdded` (graphql-ws) with the
 * supervisor's session token and forwards each risky event as an `event` message; `ready` says Vigil accepted the
 * subscription, `problem` says why it ended.
 * A comment line every 15 s keeps proxies from closing an idle stream.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const token = request.cookies.get(SESSION_COOKIE)?.value;
  if (!token) return new Response('Sign in first.\n', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const asked = Number(request.nextUrl.searchParams.get('min_score'));
  const minScore = Number.isFinite(asked) && asked > 0 && asked <= 1 ? asked : riskyThreshold();
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const send = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = subscribeEvents(
        token,
        { minScore },
        {
          ready: () => send('event: ready\ndata: {}\n\n'),
          event: (event) => send(`event: event\ndata: ${JSON.stringify(event)}\n\n`),
          failed: (message) => {
            send(`event: problem\ndata: ${JSON.stringify({ message })}\n\n`);
            cleanup();
          },
        },
      );
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      cleanup = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // Already closed by the browser going away.
        }
      };
      request.signal.addEventListener('abort', () => cleanup());
      send(`: subscribed, min score ${minScore}\n\n`);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    },
  });
}
