import { Accounts } from '../auth/accounts.js';
import { SupervisorStore } from '../auth/supervisor-store.js';
import { BehaviorDefinitions } from '../behaviors/definitions.js';
import { RegistryRepository } from '../registry/repository.js';
import { SupervisorDevices } from '../registry/service.js';
import type { AppOptions } from './app.js';
import { loginLimiters } from './rate-limit/login.js';

const HOUR_MS = 60 * 60 * 1000;

/** The registry and supervisor parts the HTTP layer (REST and GraphQL) shares, built from the app's options. */
export function registryServices(options: AppOptions) {
  const env = options.config.env;
  const registry = new RegistryRepository(options.database);
  const perMinute = env.VIGIL_LOGIN_ATTEMPTS_PER_MINUTE;
  const supervisors = new SupervisorStore(options.database);
  return {
    ...options,
    registry,
    supervisors,
    accounts: new Accounts({
      database: options.database,
      supervisors,
      defaultTokenTtlDays: env.VIGIL_API_TOKEN_DEFAULT_TTL_DAYS,
      defaultOverlapHours: env.VIGIL_KEY_ROTATION_OVERLAP_HOURS,
    }),
    supervisorDevices: new SupervisorDevices(options.database, registry),
    behaviorDefinitions: new BehaviorDefinitions(options.database.db),
    loginLimiters: loginLimiters(perMinute),
    sessionTtlMs: env.VIGIL_SESSION_TTL_HOURS * HOUR_MS,
  };
}

export type RegistryServices = ReturnType<typeof registryServices>;
