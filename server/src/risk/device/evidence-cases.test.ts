import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeDeviceSignals } from './signals.js';

// The shared evidence cases (clients/evidence-cases.json), which the Android library's offline verdict is tested
// against too: both sides read android-evidence.json, and these cases keep them giving the same tags.
interface EvidenceCase {
  name: string;
  evidence: Partial<Record<'emulator' | 'root' | 'hooks', string[]>>;
  tags: string[];
}
const { cases } = JSON.parse(readFileSync(new URL('../../../../clients/evidence-cases.json', import.meta.url), 'utf8')) as { cases: EvidenceCase[] };

const block = (evidence: EvidenceCase['evidence']) => ({
  version: 1,
  platform: 'android',
  ...Object.fromEntries(Object.entries(evidence).map(([section, items]) => [section, { detected: items.length > 0, evidence: items }])),
});

describe('the shared Android evidence cases', () => {
  it('are there', () => expect(cases.length).toBeGreaterThan(10));

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { evidence, tags }) => {
    expect(judgeDeviceSignals(block(evidence))).toEqual({ tags, warnings: [] });
  });
});
