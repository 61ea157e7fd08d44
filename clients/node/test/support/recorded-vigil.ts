import { afterAll, beforeAll } from 'vitest';
import { startVigil, type RunningVigil } from '../start-vigil.js';
import { startProxy, type RecordingProxy } from './recording-proxy.js';

/** A real Vigil behind a recording proxy, for one test file: started before its tests, stopped after them. */
export function recordedVigil(): { server: RunningVigil; recorder: RecordingProxy } {
  const running = {} as { server: RunningVigil; recorder: RecordingProxy };
  beforeAll(async () => {
    running.server = await startVigil();
    running.recorder = await startProxy({ target: running.server.url });
  });
  afterAll(async () => {
    await running.recorder?.close();
    await running.server?.stop();
  });
  return running;
}
