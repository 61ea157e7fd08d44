import { describe, expect, it } from 'vitest';
import { judgeDeviceSignals } from './signals.js';

// Shapes exactly as clients/android (AndroidDeviceSignals + CheckResult.toMap) and clients/browser
// (signals/automation.ts) send them.
const android = (emulator: string[] = [], root: string[] = [], hooks: string[] = []) => ({
  version: 1,
  platform: 'android',
  sdk_int: 34,
  emulator: { detected: emulator.length > 0, evidence: emulator },
  root: { detected: root.length > 0, evidence: root },
  hooks: { detected: hooks.length > 0, evidence: hooks },
  collected_at_ms: 1_700_000_000_000,
});
const web = (found: string[]) => ({
  version: 1,
  platform: 'web',
  automation: {
    webdriver: found.includes('webdriver'),
    headless_ua: found.includes('headless_ua'),
    software_renderer: found.includes('software_renderer'),
    plugins_missing: found.includes('plugins_missing'),
    evidence: found,
    errors: {},
  },
});
const tags = (block: unknown) => judgeDeviceSignals(block).tags;

describe('device_signals rules', () => {
  it('tags a real emulator, root and Frida from strong evidence', () => {
    expect(tags(android(['build.hardware=ranchu', 'prop.ro.kernel.qemu=1']))).toEqual(['emulator']);
    expect(tags(android([], ['su:/system/xbin/su']))).toEqual(['rooted']);
    expect(tags(android([], ['magisk:/data/adb/magisk']))).toEqual(['rooted']);
    expect(tags(android([], [], ['maps:frida:/data/local/tmp/frida-agent-64.so']))).toEqual(['hooked']);
    expect(tags(android([], [], ['class:de.robv.android.xposed.XposedBridge']))).toEqual(['hooked']);
  });

  it('needs weak evidence to agree before tagging', () => {
    expect(tags(android([], ['prop.ro.debuggable=1']))).toEqual([]);
    expect(tags(android([], ['prop.ro.debuggable=1', 'build.tags=test-keys']))).toEqual(['rooted']);
    expect(tags(android(['build.model=sdk_gphone64_x86_64']))).toEqual([]);
    expect(tags(android(['build.model=sdk_gphone64_x86_64', 'build.fingerprint=generic/sdk_gphone64']))).toEqual(['emulator']);
    expect(tags(android([], [], ['port:27042']))).toEqual([]);
  });

  it('trusts evidence, not the client flag, and ignores unknown evidence', () => {
    expect(tags({ ...android(), root: { detected: true, evidence: [] } })).toEqual([]);
    expect(tags(android([], ['something:new']))).toEqual([]);
  });

  it('tags bot from browser automation evidence', () => {
    expect(tags(web(['webdriver']))).toEqual(['bot']);
    expect(tags(web(['headless_ua', 'software_renderer']))).toEqual(['bot']);
    expect(tags(web(['software_renderer', 'plugins_missing']))).toEqual([]);
    expect(tags(web([]))).toEqual([]);
  });

  it('counts only known checks: names every object has neither add to the score nor spoil it', () => {
    const evidence = (names: string[]) => ({ version: 1, platform: 'web', automation: { evidence: names } });
    expect(tags(evidence(['webdriver', 'constructor', 'toString', '__proto__']))).toEqual(['bot']);
    expect(tags(evidence(['constructor', 'hasOwnProperty']))).toEqual([]);
  });

  it('reports malformed and unknown versions as warnings', () => {
    expect(judgeDeviceSignals({ version: 2, platform: 'web' }).warnings[0]!.code).toBe('unsupported_device_signals_version');
    expect(judgeDeviceSignals({ version: 1, platform: 'ios' }).warnings[0]!.code).toBe('invalid_device_signals');
    expect(judgeDeviceSignals({ version: 1, platform: 'web', automation: 'yes' }).warnings[0]!.code).toBe('invalid_device_signals');
    expect(judgeDeviceSignals(undefined)).toEqual({ tags: [], warnings: [] });
  });
});
