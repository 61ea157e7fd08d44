export interface UserAgentInfo {
  /** chrome, edge, opera, samsung, firefox, safari, or null. Headless Chrome counts as chrome. */
  browser: string | null;
  /** Major version: volatile, it changes with every update. */
  major: number | null;
  /** windows, macos, ios, android, chromeos, linux, or null. */
  os: string | null;
}

const BROWSERS: Array<[string, RegExp]> = [
  ['edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['opera', /\bOPR\/(\d+)/],
  ['samsung', /\bSamsungBrowser\/(\d+)/],
  ['firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['chrome', /\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\/(\d+)/],
  ['safari', /\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: Array<[string, RegExp]> = [
  ['windows', /Windows/],
  ['ios', /iPhone|iPad|iPod/],
  ['android', /Android/],
  ['chromeos', /CrOS/],
  ['macos', /Macintosh|Mac OS X/],
  ['linux', /Linux|X11/],
];

/** A deliberately small parser: the handprint needs families, not exact products. */
export function parseUserAgent(ua: string | null | undefined): UserAgentInfo {
  if (!ua) return { browser: null, major: null, os: null };
  let browser: string | null = null;
  let major: number | null = null;
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) {
      browser = name;
      major = Number(m[1]);
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? null;
  return { browser, major, os };
}
