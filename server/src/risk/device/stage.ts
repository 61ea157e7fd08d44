import type { EvaluationItem, InsightStage, StageOutput } from '../stage.js';
import { judgeDeviceSignals } from './signals.js';

/** `emulator`, `rooted`, `hooked` (Android) and `bot` (browser automation) from the event's `device_signals`. */
export const deviceIntegrityStage: InsightStage = {
  name: 'device-integrity',
  async run(_tx, batch: readonly EvaluationItem[]): Promise<StageOutput[]> {
    return batch.map(({ event }) => {
      const { tags, warnings } = judgeDeviceSignals(event.properties.device_signals);
      return { ...(tags.length > 0 ? { tags } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
    });
  },
};
