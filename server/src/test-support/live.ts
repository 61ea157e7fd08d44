import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestVigil } from './harness.js';

export const EVENT_ADDED = `subscription ($filter: EventFilter) { eventAdded(filter: $filter) { id name identity deviceId tags riskScore receivedAt } }`;

/** A subscription read as a test reads it: wait for the next event, or for how it ended. */
export interface Feed {
  next(): Promise<Record<string, any>>;
  /** The close code or GraphQL errors that ended it. */
  ended: Promise<{ code?: number; reason?: string; errors?: any[] }>;
  client: Client;
}

export function subscribe(server: TestVigil, authorization: string | null, filter: Record<string, unknown> | null = null, query = EVENT_ADDED): Feed {
  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: authorization === null ? {} : { authorization },
    retryAttempts: 0,
    lazy: true,
  });
  const queue: Record<string, any>[] = [];
  const waiting: ((value: Record<string, any>) => void)[] = [];
  let finish!: (value: { code?: number; reason?: string; errors?: any[] }) => void;
  const ended = new Promise<{ code?: number; reason?: string; errors?: any[] }>((resolve) => (finish = resolve));
  client.subscribe(
    { query, variables: { filter } },
    {
      next: (result) => {
        if (result.errors) return finish({ errors: [...result.errors] });
        const event = (result.data as any).eventAdded;
        const w = waiting.shift();
        if (w) w(event);
        else queue.push(event);
      },
      error: (error: any) => finish(Array.isArray(error) ? { errors: error } : { code: error?.code, reason: error?.reason }),
      complete: () => finish({}),
    },
  );
  return {
    client,
    ended,
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiting.push(resolve))),
  };
}

/** Resolves once the server holds exactly `n` subscriptions, so an event posted next is one they can see. */
export async function subscribed(server: TestVigil, n: number): Promise<void> {
  while (server.vigil.feed.size !== n) await new Promise((r) => setTimeout(r, 20));
}
