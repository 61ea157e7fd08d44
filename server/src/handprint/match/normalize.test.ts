import { describe, expect, it } from 'vitest';
import { components, WINDOWS_CHROME } from './fixtures.js';
import { FEATURES } from './features.js';
import { normalizeComponents, normalizeRenderer } from './normalize.js';
import { parseUserAgent } from './user-agent.js';

describe('normalizeComponents', () => {
  it('maps a full reading to comparable features', () => {
    const f = normalizeComponents(components(WINDOWS_CHROME));
    expect(f).toMatchObject({
      os: 'windows',
      browser: 'chrome',
      browser_major: 130,
      platform: 'win32',
      ua_platform: 'windows',
      cpu: 'x86/64',
      model: null,
      screen: '1920x1080x24',
      pixel_ratio: 1.25,
      timezone: 'Europe/Berlin',
      languages: 'de-de,de,en-us,en',
      hardware_concurrency: 8,
      device_memory: 8,
      touch: '0|0|fine',
      color: 'srgb|0|0',
      window: '1536x731',
      gpu: 'google inc. (intel)|angle (intel, intel(r) uhd graphics 620 (0x00005917) direct3d11 vs_5_0 ps_5_0, d3d11)',
    });
    expect(f.fonts).toEqual([...WINDOWS_CHROME.fonts].map((x) => x.toLowerCase()).sort());
    for (const def of FEATURES) expect(def.name in f).toBe(true);
  });

  it('never throws on hostile input: unknown shapes become null', () => {
    for (const junk of [null, undefined, 42, 'x', [], { canvas: 'nope', screen: { value: [1, 2] }, fonts: { value: [1, null, {}] } }]) {
      const f = normalizeComponents(junk);
      expect(f.canvas_text).toBeNull();
      expect(f.screen).toBeNull();
    }
    expect(normalizeComponents({ fonts: { value: ['A', 3, 'a', 'x'.repeat(200)] } }).fonts).toEqual(['a']);
    expect(normalizeComponents({ pixel_ratio: { value: Number.NaN } }).pixel_ratio).toBeNull();
  });

  it('uses the User-Agent header when the user_agent source failed', () => {
    const f = normalizeComponents(components(WINDOWS_CHROME, ['user_agent']), { userAgent: WINDOWS_CHROME.ua });
    expect(f).toMatchObject({ os: 'windows', browser: 'chrome', browser_major: 130 });
  });

  it('falls back to UTC offsets when the zone has no name', () => {
    expect(normalizeComponents({ timezone: { value: { name: null, offset_jan: 300, offset_jul: 240 } } }).timezone).toBe('utc300/240');
  });

  it('strips driver build numbers from GPU names', () => {
    expect(normalizeRenderer('Google Inc. (Intel)', 'ANGLE (Intel, Intel(R) UHD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)')).toBe(
      'google inc. (intel)|angle (intel, intel(r) uhd graphics 620 direct3d11 vs_5_0 ps_5_0, d3d11)',
    );
    expect(normalizeRenderer('Intel', 'Mesa Intel(R) Xe Graphics (TGL GT2) 23.2.1')).toBe('intel|mesa intel(r) xe graphics (tgl gt2)');
    expect(normalizeRenderer(null, null)).toBeNull();
  });
});

describe('parseUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36', 'chrome', 156, 'linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'edge', 131, 'windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0', 'firefox', 133, 'macos'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'safari',
      17,
      'ios',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'chrome',
      126,
      'ios',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'samsung',
      25,
      'android',
    ],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', 'chrome', 130, 'chromeos'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0', 'opera', 115, 'windows'],
  ])('%s', (ua, browser, major, os) => {
    expect(parseUserAgent(ua)).toEqual({ browser, major, os });
  });

  it('knows nothing about nothing', () => {
    expect(parseUserAgent('')).toEqual({ browser: null, major: null, os: null });
    expect(parseUserAgent('curl/8.5.0')).toEqual({ browser: null, major: null, os: null });
  });
});
