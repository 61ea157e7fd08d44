import type { HandprintFeatures } from './features.js';
import { parseUserAgent } from './user-agent.js';

/** What the server knows beside the body (the User-Agent header is a fallback for the user_agent source). */
export interface NormalizeContext {
  userAgent?: string | null;
}

type Obj = Record<string, unknown>;

/**
 * Turns the components a browser reported (untrusted, possibly partial or malformed) into comparable features.
 * Unknown components are ignored, failed ones become null, odd types become null: never throws.
 */
export function normalizeComponents(components: unknown, context: NormalizeContext = {}): HandprintFeatures {
  const c = isObj(components) ? components : {};
  const value = (name: string): unknown => {
    const entry = c[name];
    return isObj(entry) && 'value' in entry ? entry.value : undefined;
  };
  const obj = (name: string): Obj => {
    const v = value(name);
    return isObj(v) ? v : {};
  };

  const uaReading = obj('user_agent');
  const ua = str(uaReading.user_agent) ?? context.userAgent ?? null;
  const parsed = parseUserAgent(ua);
  const platform = obj('platform');
  const gl = obj('webgl');
  const screen = obj('screen');
  const tz = obj('timezone');
  const langs = obj('languages');
  const touch = obj('touch');
  const color = obj('color_gamut');
  const canvas = obj('canvas');
  const canvasTrusted = canvas.stable !== false;
  const audio = obj('audio');
  const plugins = obj('plugins');

  const width = num(screen.width);
  const height = num(screen.height);
  const depth = num(screen.color_depth);
  const cpuArch = str(platform.architecture);
  const bitness = str(platform.bitness);

  return {
    os: parsed.os,
    browser: parsed.browser,
    platform: lower(str(platform.platform)),
    ua_platform: lower(str(platform.ua_platform)),
    cpu: cpuArch || bitness ? `${cpuArch ?? ''}/${bitness ?? ''}`.toLowerCase() : null,
    model: lower(str(platform.model)) || null,
    gpu: gpuOf(gl),
    screen: width && height ? `${Math.max(width, height)}x${Math.min(width, height)}x${depth ?? 0}` : null,
    pixel_ratio: roundTo(num(value('pixel_ratio')), 2),
    timezone: str(tz.name) ?? (num(tz.offset_jan) !== null ? `utc${num(tz.offset_jan)}/${num(tz.offset_jul)}` : null),
    languages: languagesOf(langs),
    hardware_concurrency: num(value('hardware_concurrency')),
    device_memory: num(value('device_memory')),
    touch: isObj(value('touch')) ? `${num(touch.max_touch_points) ?? 0}|${touch.touch_event === true ? 1 : 0}|${str(touch.pointer) ?? '-'}` : null,
    color: isObj(value('color_gamut')) ? `${str(color.gamut) ?? '-'}|${color.hdr === true ? 1 : 0}|${color.monochrome === true ? 1 : 0}` : null,
    math: str(obj('math').hash),
    architecture: num(value('architecture')),
    canvas_text: canvasTrusted ? str(canvas.text) : null,
    canvas_geometry: canvasTrusted ? str(canvas.geometry) : null,
    audio: str(audio.sum) ?? str(audio.hash),
    webgl_params: str(gl.parameters) && str(gl.extensions) ? `${str(gl.parameters)}|${str(gl.extensions)}` : null,
    intl: str(obj('intl').hash),
    fonts: fontsOf(value('fonts')),
    browser_major: parsed.major,
    window: num(screen.inner_width) !== null ? `${num(screen.inner_width)}x${num(screen.inner_height)}` : null,
    avail_screen: num(screen.avail_width) !== null ? `${num(screen.avail_width)}x${num(screen.avail_height)}` : null,
    features: str(value('features')),
    preferences: isObj(value('media_preferences')) ? stableJson(value('media_preferences')) : null,
    storage: isObj(value('storage')) ? stableJson(value('storage')) : null,
    plugins: isObj(value('plugins')) ? `${num(plugins.count) ?? 0}|${String(plugins.pdf_viewer ?? '-')}` : null,
    platform_version: str(platform.platform_version),
  };
}

/**
 * GPU identity without driver build numbers (they change with driver updates), e.g.
 * "ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)"
 * → "... d3d11)".
 */
export function normalizeRenderer(vendor: string | null, renderer: string | null): string | null {
  if (!vendor && !renderer) return null;
  const clean = (s: string | null) =>
    (s ?? '')
      .toLowerCase()
      .replace(/-\d+(\.\d+){2,}/g, '')
      .replace(/\b\d+(\.\d+){2,}\b/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  return `${clean(vendor)}|${clean(renderer)}`;
}

function gpuOf(gl: Obj): string | null {
  const vendor = str(gl.unmasked_vendor) ?? str(gl.vendor);
  const renderer = str(gl.unmasked_renderer) ?? str(gl.renderer);
  return normalizeRenderer(vendor, renderer);
}

function languagesOf(langs: Obj): string | null {
  const list = Array.isArray(langs.languages) ? langs.languages.filter((l): l is string => typeof l === 'string') : [];
  const all = list.length > 0 ? list : str(langs.language) ? [str(langs.language) as string] : [];
  return all.length > 0
    ? all
        .slice(0, 10)
        .map((l) => l.toLowerCase())
        .join(',')
    : null;
}

function fontsOf(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null;
  const names = v.filter((f): f is string => typeof f === 'string' && f.length > 0 && f.length <= 100);
  return Array.from(new Set(names.map((f) => f.toLowerCase())))
    .sort()
    .slice(0, 300);
}

function stableJson(v: unknown): string {
  const o = v as Obj;
  return JSON.stringify(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, 500) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const lower = (s: string | null): string | null => (s === null ? null : s.toLowerCase());
const roundTo = (n: number | null, digits: number): number | null => (n === null ? null : Number(n.toFixed(digits)));
