import { describe, expect, it } from 'vitest';
import { bumpChrome, components, WINDOWS_CHROME as BASE, type Profile } from './fixtures.js';
import { compareFeatures, profileConfidence } from './compare.js';
import { normalizeComponents } from './normalize.js';

const features = (p: Partial<Profile>, fail: string[] = []) => normalizeComponents(components({ ...BASE, ...p }, fail));
const stored = features({});

describe('handprint comparison: the same device', () => {
  it('recognises an identical reading with high confidence', () => {
    const c = compareFeatures(stored, features({}));
    expect(c).toMatchObject({ same: true, reason: 'match', vetoes: [], tolerated: [], unknown: [] });
    expect(c.confidence).toBeGreaterThanOrEqual(0.95);
  });

  it('tolerates a browser update, even when it changes canvas, audio and WebGL results', () => {
    const bumped = { ua: bumpChrome(BASE.ua, 131) };
    expect(compareFeatures(stored, features(bumped))).toMatchObject({ same: true, tolerated: [], changed: ['browser_major'] });
    const redrawn = compareFeatures(stored, features({ ...bumped, canvasText: '0000aaaa0000aaaa', audio: '124.043477799', webglParams: 'ffff' }));
    expect(redrawn).toMatchObject({ same: true, tolerated: ['canvas_text', 'audio', 'webgl_params'] });
    expect(redrawn.confidence).toBeLessThan(compareFeatures(stored, features({})).confidence);
    expect(redrawn.confidence).toBeGreaterThan(0.6);
  });

  it('tolerates a resized window and a moved task bar', () => {
    const c = compareFeatures(stored, features({ inner: [800, 600] }));
    expect(c).toMatchObject({ same: true, changed: ['window'] });
  });

  it('tolerates one new font, and a removed one', () => {
    expect(compareFeatures(stored, features({ fonts: [...BASE.fonts, 'Roboto'] }))).toMatchObject({ same: true, tolerated: ['fonts'] });
    expect(compareFeatures(stored, features({ fonts: BASE.fonts.slice(1) }))).toMatchObject({ same: true });
  });

  it('tolerates a GPU driver update (build number in the renderer string)', () => {
    const gpu = BASE.gpu.replace('27.20.100.8681', '31.0.101.4502');
    expect(compareFeatures(stored, features({ gpu }))).toMatchObject({ same: true, vetoes: [] });
  });

  it('tolerates a rotated screen', () => {
    expect(compareFeatures(stored, features({ screen: [1080, 1920] }))).toMatchObject({ same: true });
  });

  it('matches on what both readings know when a source failed', () => {
    const c = compareFeatures(stored, features({}, ['webgl', 'audio']));
    expect(c).toMatchObject({ same: true, unknown: ['gpu', 'audio', 'webgl_params'] });
    expect(c.confidence).toBeLessThan(0.99);
  });

  it('ignores canvas hashes a noise-adding browser reported as unstable', () => {
    const noisy = features({ canvasText: '1111', canvasGeometry: '2222', canvasStable: false });
    expect(compareFeatures(stored, noisy)).toMatchObject({ same: true, unknown: ['canvas_text', 'canvas_geometry'] });
  });
});

describe('handprint comparison: different devices', () => {
  it.each<[string, Partial<Profile>, string]>([
    ['GPU renderer', { gpu: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3070 (0x00002484) Direct3D11 vs_5_0 ps_5_0, D3D11)' }, 'gpu'],
    ['screen', { screen: [2560, 1440] }, 'screen'],
    ['device pixel ratio', { dpr: 1 }, 'pixel_ratio'],
    ['timezone', { tz: 'Europe/London' }, 'timezone'],
    ['locale', { langs: ['en-GB', 'en'] }, 'languages'],
    ['hardware concurrency', { hwc: 4 }, 'hardware_concurrency'],
    ['device memory', { memory: 16 }, 'device_memory'],
    ['platform', { platform: 'Linux x86_64', uaPlatform: 'Linux' }, 'platform'],
    ['operating system', { ua: BASE.ua.replace('Windows NT 10.0; Win64; x64', 'Macintosh; Intel Mac OS X 10_15_7') }, 'os'],
    ['canvas hash (same browser version)', { canvasText: '0000aaaa0000aaaa' }, 'canvas_text'],
    ['canvas geometry (same browser version)', { canvasGeometry: '0000aaaa0000aaaa' }, 'canvas_geometry'],
    ['audio hash (same browser version)', { audio: '124.043477799' }, 'audio'],
    ['math quirks', { math: 'ffffffffffffffff' }, 'math'],
    ['touch screen', { touchPoints: 10 }, 'touch'],
    ['colour gamut', { gamut: 'p3' }, 'color'],
    ['fonts beyond the tolerance', { fonts: ['Arial', 'Helvetica Neue', 'Menlo', 'Monaco', 'Avenir'] }, 'fonts'],
  ])('tells devices apart by %s', (_label, change, feature) => {
    const c = compareFeatures(stored, features(change));
    expect(c.same).toBe(false);
    expect(c.confidence).toBe(0);
    expect(c.vetoes).toContain(feature);
  });

  it('does not forgive a different machine because its browser version differs too', () => {
    const c = compareFeatures(stored, features({ ua: bumpChrome(BASE.ua, 131), hwc: 4, canvasText: '0000' }));
    expect(c).toMatchObject({ same: false, vetoes: ['hardware_concurrency'], tolerated: ['canvas_text'] });
  });

  it('refuses to match two nearly empty readings', () => {
    const empty = normalizeComponents({ timezone: { value: { name: 'UTC' } }, pixel_ratio: { value: 1 } });
    expect(compareFeatures(empty, empty)).toMatchObject({ same: false, reason: 'insufficient_evidence' });
  });
});

describe('profile confidence', () => {
  it('grows with the evidence a reading carries', () => {
    const full = profileConfidence(stored);
    const partial = profileConfidence(features({}, ['webgl', 'canvas', 'audio', 'fonts']));
    expect(full).toBeGreaterThan(0.95);
    expect(partial).toBeLessThan(full);
    expect(profileConfidence({})).toBe(0.05);
  });
});
