import type { StageLog } from '../risk/stage.js';

export type { StageLog };
export const silentLog: StageLog = { info() {}, warn() {}, error() {} };
