import { vigil, type VigilOptions } from '../../src/vigil.js';
import type { VigilError } from '../../src/core/errors.js';
import { FakeClock } from './fake-clock.js';
import { FakeTransport } from './fake-transport.js';

/** A client wired to a fake clock and transport, with ids and jitter pinned, collecting errors. */
export function fakeClient(options: VigilOptions = {}) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const errors: VigilError[] = [];
  let id = 0;
  const client = vigil('http://vigil.test', {
    writeKey: 'vigil_wk_test',
    clock,
    transport,
    random: () => 0.5,
    newId: () => `id-${++id}`,
    onError: (error) => errors.push(error),
    ...options,
  });
  return { client, clock, transport, errors };
}
