/**
 * Component readings in the shape @vigil/browser sends to POST /js/collect, for HTTP-level tests that do not need
 * a real browser (the Chromium suites use the real library).
 */
export interface ReadingOptions {
  userAgent?: string;
  screen?: [number, number];
  dpr?: number;
  timezone?: string;
  languages?: string[];
  cores?: number;
}

export const WINDOWS_CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

export function reading(o: ReadingOptions = {}): Record<string, unknown> {
  const ua = o.userAgent ?? WINDOWS_CHROME_UA;
  const [w, h] = o.screen ?? [1920, 1080];
  const langs = o.languages ?? ['de-DE', 'de', 'en-US'];
  const value = (v: unknown) => ({ value: v, ms: 1 });
  return {
    user_agent: value({ user_agent: ua, vendor: 'Google Inc.', brands: [] }),
    platform: value({ platform: 'Win32', ua_platform: 'Windows', mobile: false, architecture: 'x86', bitness: '64', model: '', platform_version: '15.0.0' }),
    webgl: value({
      vendor: 'WebKit',
      renderer: 'WebKit WebGL',
      unmasked_vendor: 'Google Inc. (Intel)',
      unmasked_renderer: 'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)',
      version: 'WebGL 1.0',
      shading_language: 'WebGL GLSL ES 1.0',
      parameters: 'e2169bed638ef066',
      extensions: '17440cc16e5d8254',
    }),
    canvas: value({ text: '4e77bfddfc3dcc78', geometry: 'b9c669b7ac5d7b03', stable: true, winding: true }),
    audio: value({ sum: '124.043477767', hash: 'h124.043477767' }),
    fonts: value(['Arial', 'Calibri', 'Cambria', 'Consolas', 'Courier New', 'Segoe UI', 'Tahoma', 'Times New Roman', 'Marlett', 'MS Gothic']),
    screen: value({
      width: w,
      height: h,
      color_depth: 24,
      avail_width: w,
      avail_height: h - 40,
      inner_width: 1536,
      inner_height: 731,
      orientation: 'landscape-primary',
    }),
    pixel_ratio: value(o.dpr ?? 1.25),
    timezone: value({ name: o.timezone ?? 'Europe/Berlin', offset_jan: -60, offset_jul: -120 }),
    languages: value({ language: langs[0], languages: langs, intl_locale: langs[0] }),
    hardware_concurrency: value(o.cores ?? 8),
    device_memory: value(8),
    touch: value({ max_touch_points: 0, touch_event: false, pointer: 'fine', hover: true }),
    color_gamut: value({ gamut: 'srgb', hdr: false, monochrome: false }),
    math: value({ hash: 'abd168421f0ad499', values: [] }),
    architecture: value(255),
  };
}

export function collectBody(deviceId: string, options: ReadingOptions = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1, library: { name: '@vigil/browser', version: '0.1.0' }, device_id: deviceId, components: reading(options), ...extra };
}
