import type { Config } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import type { InsightStage } from './stage.js';

/**
 * The insight stages, in the order they run. Each later issue adds its stage here with one line
 * (registry state, behaviors, network intelligence, device integrity, e-mail and phone intelligence).
 */
export async function createStages(_config: Config, _database: DatabaseHandle): Promise<InsightStage[]> {
  return [];
}
