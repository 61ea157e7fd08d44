import type { StageLog } from '../pipeline/stage.js';

export type { StageLog };
export const silentLog: StageLog = { info() {}, warn() {}, error() {} };
