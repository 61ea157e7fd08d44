/** Realistic component readings (as @vigil/browser sends them) for the handprint tests. */
export interface Profile {
  ua: string;
  platform: string;
  uaPlatform: string | null;
  gpu: string;
  screen: [number, number];
  inner: [number, number];
  dpr: number;
  tz: string;
  langs: string[];
  hwc: number;
  memory: number | null;
  canvasText: string;
  canvasGeometry: string;
  canvasStable: boolean;
  audio: string;
  math: string;
  fonts: string[];
  touchPoints: number;
  gamut: string;
  webglParams: string;
}

export const WINDOWS_CHROME: Profile = {
  ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  platform: 'Win32',
  uaPlatform: 'Windows',
  gpu: 'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)',
  screen: [1920, 1080],
  inner: [1536, 731],
  dpr: 1.25,
  tz: 'Europe/Berlin',
  langs: ['de-DE', 'de', 'en-US', 'en'],
  hwc: 8,
  memory: 8,
  canvasText: '4e77bfddfc3dcc78',
  canvasGeometry: 'b9c669b7ac5d7b03',
  canvasStable: true,
  audio: '124.043477767',
  math: 'abd168421f0ad499',
  fonts: [
    'Arial',
    'Calibri',
    'Cambria',
    'Consolas',
    'Courier New',
    'Segoe UI',
    'Tahoma',
    'Times New Roman',
    'Marlett',
    'MS Gothic',
    'Malgun Gothic',
    'Microsoft YaHei',
  ],
  touchPoints: 0,
  gamut: 'srgb',
  webglParams: 'e2169bed638ef066',
};

export function components(p: Profile, fail: string[] = []): Record<string, unknown> {
  const all: Record<string, unknown> = {
    user_agent: { user_agent: p.ua, vendor: 'Google Inc.', brands: [] },
    platform: { platform: p.platform, ua_platform: p.uaPlatform, mobile: false, architecture: 'x86', bitness: '64', model: '', platform_version: '15.0.0' },
    webgl: {
      vendor: 'WebKit',
      renderer: 'WebKit WebGL',
      unmasked_vendor: 'Google Inc. (Intel)',
      unmasked_renderer: p.gpu,
      version: 'WebGL 1.0',
      shading_language: 'WebGL GLSL ES 1.0',
      parameters: p.webglParams,
      extensions: '17440cc16e5d8254',
    },
    canvas: { text: p.canvasText, geometry: p.canvasGeometry, stable: p.canvasStable, winding: true },
    audio: { sum: p.audio, hash: `h${p.audio}` },
    fonts: p.fonts,
    screen: {
      width: p.screen[0],
      height: p.screen[1],
      color_depth: 24,
      avail_width: p.screen[0],
      avail_height: p.screen[1] - 40,
      inner_width: p.inner[0],
      inner_height: p.inner[1],
      orientation: 'landscape-primary',
    },
    pixel_ratio: p.dpr,
    timezone: { name: p.tz, offset_jan: -60, offset_jul: -120 },
    languages: { language: p.langs[0], languages: p.langs, intl_locale: p.langs[0] },
    hardware_concurrency: p.hwc,
    device_memory: p.memory,
    touch: { max_touch_points: p.touchPoints, touch_event: p.touchPoints > 0, pointer: p.touchPoints > 0 ? 'coarse' : 'fine', hover: true },
    color_gamut: { gamut: p.gamut, hdr: false, monochrome: false },
    math: { hash: p.math, values: [] },
    architecture: 255,
    intl: { number: '1.234.567,891', date: '', calendar: 'gregory', numbering_system: 'latn', hour_cycle: 'h23', hash: 'a4b29a64abc9cce0' },
    media_preferences: { color_scheme: 'light', reduced_motion: false, contrast: null, forced_colors: false, inverted_colors: false },
    storage: { local_storage: true, session_storage: true, indexed_db: true, cookies_enabled: true },
    plugins: { count: 5, pdf_viewer: true, names: 'fa7bcc17e9a9d31a' },
    features: '00110111110111111111111111110110',
  };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(all)) out[name] = fail.includes(name) ? { error: 'failed', ms: 1 } : { value, ms: 1 };
  return out;
}

export const bumpChrome = (ua: string, to: number) => ua.replace(/Chrome\/\d+/, `Chrome/${to}`);
