import 'server-only';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { apiUrl } from '../config';
import { documents } from '../vigil/documents';
import type { ConsoleEventAddedSubscription, EventFilter } from '../vigil/generated';

export type LiveEvent = ConsoleEventAddedSubscription['eventAdded'];

export interface LiveHandlers {
  /** Connected and acknowledged by Vigil (again after a reconnect). */
  ready(): void;
  event(event: LiveEvent): void;
  /** The subscription ended with an error (refused, or the server went away for good). */
  failed(message: string): void;
}

/**
 * Subscribes to Vigil's `eventAdded` over graphql-ws with the supervisor's token, as the browser never holds it.
 * The client reconnects on its own across a server restart; the returned function ends the subscription.
 */
export function subscribeEvents(token: string, filter: EventFilter, handlers: LiveHandlers): () => void {
  const url = `${apiUrl().replace(/^http/, 'ws')}/graphql`;
  const client: Client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 5,
    lazy: true,
    on: { connected: () => handlers.ready() },
  });
  const stop = client.subscribe<ConsoleEventAddedSubscription>(
    { query: documents.eventAdded, variables: { filter } },
    {
      next: (result) => {
        if (result.errors?.length) handlers.failed(result.errors[0]!.message);
        else if (result.data) handlers.event(result.data.eventAdded);
      },
      error: (error) => handlers.failed(describe(error)),
      // Vigil ends a subscription only when it stops serving it; the page then offers to reconnect.
      complete: () => handlers.failed('Vigil ended the live feed'),
    },
  );
  return () => {
    stop();
    void client.dispose();
  };
}

function describe(error: unknown): string {
  if (Array.isArray(error)) return error.map((e: { message?: string }) => e.message ?? String(e)).join('; ');
  if (error && typeof error === 'object' && 'reason' in error && (error as { reason?: string }).reason)
    return `connection closed: ${(error as { reason: string }).reason}`;
  if (error instanceof Error) return error.message;
  return 'the live feed ended';
}
