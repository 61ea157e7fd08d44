import type pg from 'pg';
import { LISTEN_RETRY } from './listen.js';

export interface ListenCallbacks {
  onMessage(payload: string): void;
  onLost(error: Error): void;
  onRestored?(): void;
}

/**
 * LISTEN on a dedicated connection that survives the server: a restart, a failover or a dropped connection is
 * reported once (`onLost`), then the connection is re-made with backoff (250 ms doubling to 5 s) until it listens
 * again (`onRestored`). Every client carries an 'error' listener from birth: an unhandled one would end the process.
 * pg-listen does the same but is unmaintained; this is the part of it Vigil needs.
 */
export async function listenWithReconnect(newClient: () => pg.Client, channel: string, callbacks: ListenCallbacks): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let delay = LISTEN_RETRY.firstMs;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (stopped) return;
    timer = setTimeout(() => void attempt(), delay);
    delay = Math.min(delay * 2, LISTEN_RETRY.maxMs);
  };

  // Called for an established client only: a client that fails while connecting is the attempt's to handle.
  const lose = (client: pg.Client, error: Error) => {
    if (client !== current || stopped) return;
    current = undefined;
    client.end().catch(() => {});
    callbacks.onLost(error);
    retry();
  };

  const connect = async (): Promise<pg.Client> => {
    const client = newClient();
    client.on('error', (error) => lose(client, error));
    client.on('end', () => lose(client, new Error('notification connection ended')));
    client.on('notification', (msg) => msg.channel === channel && callbacks.onMessage(msg.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    return client;
  };

  const attempt = async () => {
    try {
      const client = await connect();
      if (stopped) return void client.end().catch(() => {});
      current = client;
      delay = LISTEN_RETRY.firstMs;
      callbacks.onRestored?.();
    } catch {
      retry();
    }
  };

  // The first subscription is made before returning, so a caller starting up learns of a bad database at once.
  current = await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
