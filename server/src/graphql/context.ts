import type { Accounts } from '../auth/accounts.js';
import type { KeyStore } from '../auth/key-store.js';
import type { Permission } from '../auth/roles.js';
import type { Principal, SupervisorStore } from '../auth/supervisor-store.js';
import type { BehaviorDefinitions } from '../behaviors/definitions.js';
import type { DatabaseHandle } from '../db/handle.js';
import { requirePermission } from '../auth/supervisor-guard.js';
import type { EventFeed } from '../live/event-feed.js';
import type { SupervisorDevices } from '../registry/service.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import type { RegistryRepository } from '../registry/repository.js';
import { createLoaders, type Loaders } from './loaders.js';

/** The long-lived parts resolvers use; one per server. */
export interface GraphqlServices {
  database: DatabaseHandle;
  keys: KeyStore;
  supervisors: SupervisorStore;
  accounts: Accounts;
  registry: RegistryRepository;
  supervisorDevices: SupervisorDevices;
  behaviorDefinitions: BehaviorDefinitions;
  webhooks: Webhooks;
}

/** Per request: who is asking (already authenticated at the HTTP edge) and fresh DataLoaders. */
export interface GraphqlContext {
  principal: Principal;
  services: GraphqlServices;
  loaders: Loaders;
  /** Rows a totalCount may read before it is refused (embedded database: no statement timeout); null: no cap. */
  countCap: number | null;
  /** Received-order reads leave out events received this recently (VIGIL_REPORTING_SETTLE_MS); 0: none. */
  receivedSettleMs: number;
  /** Throws `forbidden` (extensions.code) unless the caller's role has the permission. */
  require(permission: Permission): void;
  /** Over graphql-ws only: the live feed, and how to close this connection when its subscriber falls behind. */
  live?: { feed: EventFeed; slow(message: string): void };
}

export function createContext(principal: Principal, services: GraphqlServices, countCap: number | null = null, receivedSettleMs = 0): GraphqlContext {
  return {
    principal,
    services,
    // Reads go to the reporting connections, never ingestion's (see DatabaseHandle.reporting).
    loaders: createLoaders(services.database.reporting),
    countCap,
    receivedSettleMs,
    require: (permission) => requirePermission(principal, permission),
  };
}
