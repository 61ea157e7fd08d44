import { describe, expect, it } from 'vitest';
import { tuneV8, V8_FLAGS } from './v8-tuning.js';

describe('tuneV8', () => {
  it('turns off allocation-site pretenuring, so a burst of load does not leave per-event objects made in the old generation', () => {
    const set: string[] = [];
    tuneV8((flag) => set.push(flag));
    expect(set).toEqual(V8_FLAGS);
    expect(set).toContain('--no-allocation-site-pretenuring');
  });
});
