import type { ApiKey } from '../auth/key-store.js';

/** Who was authenticated when a registry change was made; recorded next to the caller-given `by`. */
export interface Actor {
  kind: 'write_key' | 'client_key' | 'supervisor';
  id: string;
  name: string;
}

export const keyActor = (key: ApiKey): Actor => ({ kind: key.kind === 'write' ? 'write_key' : 'client_key', id: key.id, name: key.name });
