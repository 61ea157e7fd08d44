import type { Config } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import { createBehaviorsStage } from '../behaviors/stage.js';
import { createRegistryStage } from '../registry/stage.js';
import { contactStage } from './contact/stage.js';
import { deviceIntegrityStage } from './device/stage.js';
import { createNetworkStage } from './intel/stage.js';
import type { InsightStage } from './stage.js';

/**
 * The insight stages, in the order they run. Each later issue adds its stage here with one line
 * (registry state, behaviors, network intelligence, device integrity, e-mail and phone intelligence).
 */
export async function createStages(config: Config, database: DatabaseHandle): Promise<InsightStage[]> {
  return [
    createRegistryStage({ multiUserWindowDays: config.env.VIGIL_MULTI_USER_WINDOW_DAYS }),
    await createBehaviorsStage(config.file.behaviors, database),
    createNetworkStage(config),
    deviceIntegrityStage,
    contactStage,
  ];
}
