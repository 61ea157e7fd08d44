import type { EvaluationItem, InsightStage, StageOutput, StageResult } from '../../pipeline/stage.js';
import { judgeDeviceSignals } from './signals.js';

/** `emulator`, `rooted`, `hooked` (Android) and `bot` (browser automation) from the event's `device_signals`. */
export const deviceIntegrityStage: InsightStage = {
  name: 'device-integrity',
  evaluate(batch: readonly EvaluationItem[]): StageResult {
    const outputs = batch.map(({ event }): StageOutput => {
      const { tags, warnings } = judgeDeviceSignals(event.properties.device_signals);
      return { ...(tags.length > 0 ? { tags } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
    });
    return { outputs };
  },
};
