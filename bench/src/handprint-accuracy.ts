/**
 * Handprint accuracy: Vigil's server-side handprint against FingerprintJS's open-source visitorId (3.x, MIT),
 * measured in the same run, in the same Chromium, on the same page.
 *
 * Each emulated configuration is a "device" (screen, pixel ratio, timezone, locale, cores, memory, OS, phone or
 * desktop). It is visited once, then revisited the ways a real returning visitor comes back: storage cleared, a fresh
 * (incognito-like) context, a resized window, a zoomed page, a browser major-version bump, and a further bump that
 * also changes engine output (a canvas pixel and audio samples, as a Skia or WebAudio change in an update does).
 * The engine drift is a model of a real phenomenon, not a recording of one; its row is reported on its own.
 * Stability: a revisit gets the first visit's id. Collision: two different configurations get the same id.
 *
 * Runs the built server (server/dist/cli.js) on a temporary PGlite database, and Debian's Chromium
 * (never a downloaded browser). FingerprintJS is served from node_modules by the local page server; no CDN.
 *   pnpm --filter @vigil/bench build && pnpm --filter @vigil/bench accuracy [-- --configs 60]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, launchChromium } from '@vigil/test-kit';
import type { Browser, BrowserContextOptions } from 'playwright-core';

const CLI = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));

interface Config {
  name: string;
  options: BrowserContextOptions;
  os: 'linux' | 'windows' | 'mac' | 'android';
  cores: number;
  memory: number;
}

type Revisit = 'storage_cleared' | 'fresh_context' | 'window_resized' | 'page_zoomed' | 'version_bump' | 'version_bump_engine_drift';
const REVISITS: Revisit[] = ['storage_cleared', 'fresh_context', 'window_resized', 'page_zoomed', 'version_bump', 'version_bump_engine_drift'];
const REVISIT_LABELS: Record<Revisit, string> = {
  storage_cleared: 'same id after storage cleared',
  fresh_context: 'same id in a fresh (incognito-like) context',
  window_resized: 'same id after the window was resized',
  page_zoomed: 'same id with the page zoomed to 110 % (devicePixelRatio × 1.1)',
  version_bump: 'same id after a browser major-version bump (UA)',
  version_bump_engine_drift: 'same id after a further bump that also changes canvas/audio output',
};

interface Reading {
  vigil: string | null;
  fpjs: string | null;
  error?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Configurations

const SCREENS: [number, number][] = [
  [1920, 1080],
  [1366, 768],
  [1536, 864],
  [2560, 1440],
  [1440, 900],
  [1280, 800],
  [1680, 1050],
  [3840, 2160],
];
const RATIOS = [1, 1.25, 1.5, 2];
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Tokyo',
  'America/Los_Angeles',
  'Europe/London',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'Asia/Kolkata',
];
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'pt-BR', 'es-ES'];
const CORES = [2, 4, 8, 12, 16];
const MEMORY = [4, 8];
const DESKTOP_OS = ['linux', 'windows', 'mac'] as const;
const PHONES: [number, number, number][] = [
  [390, 844, 3],
  [412, 915, 2.625],
  [360, 800, 3],
  [393, 873, 2.75],
];

/** A small deterministic PRNG so every run measures the same configurations. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function configurations(count: number): Config[] {
  const random = prng(6);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const seen = new Set<string>();
  const out: Config[] = [];
  while (out.length < count) {
    const phone = random() < 0.15;
    const zone = pick(ZONES);
    const locale = pick(LOCALES);
    const cores = phone ? pick([4, 8]) : pick(CORES);
    const memory = pick(MEMORY);
    let options: BrowserContextOptions;
    let os: Config['os'];
    if (phone) {
      const [w, h, dpr] = pick(PHONES);
      os = 'android';
      options = { screen: { width: w, height: h }, viewport: { width: w, height: h }, deviceScaleFactor: dpr, isMobile: true, hasTouch: true };
    } else {
      const [w, h] = pick(SCREENS);
      os = pick(DESKTOP_OS);
      options = { screen: { width: w, height: h }, viewport: { width: Math.min(w, 1280), height: Math.min(h, 720) - 40 }, deviceScaleFactor: pick(RATIOS) };
    }
    const key = JSON.stringify([options.screen, options.deviceScaleFactor, os, zone, locale, cores, memory]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: `c${out.length + 1}`, options: { ...options, timezoneId: zone, locale }, os, cores, memory });
  }
  return out;
}

/** A user agent and navigator.platform consistent with the configuration's OS, at a given Chrome major version. */
function identity(os: Config['os'], major: number): { userAgent: string; platform: string } {
  const v = `Chrome/${major}.0.0.0`;
  switch (os) {
    case 'windows':
      return { userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ${v} Safari/537.36`, platform: 'Win32' };
    case 'mac':
      return { userAgent: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) ${v} Safari/537.36`, platform: 'MacIntel' };
    case 'android':
      return { userAgent: `Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) ${v} Mobile Safari/537.36`, platform: 'Linux armv81' };
    default:
      return { userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${v} Safari/537.36`, platform: 'Linux x86_64' };
  }
}

/** Emulates what Playwright has no option for: core count, memory and a platform consistent with the UA. */
function hardwareScript(config: Config, platform: string): string {
  return `(() => {
    const define = (name, value) => Object.defineProperty(Navigator.prototype, name, { get: () => value, configurable: true });
    define('hardwareConcurrency', ${config.cores});
    define('deviceMemory', ${config.memory});
    define('platform', ${JSON.stringify(platform)});
  })();`;
}

/**
 * A browser update that changes engine output: one canvas pixel and a little audio gain, the same on every call
 * (deterministic, so neither library sees it as noise).
 */
const ENGINE_DRIFT = `(() => {
  const toDataURL = HTMLCanvasElement.prototype.toDataURL;
  HTMLCanvasElement.prototype.toDataURL = function (...args) {
    const ctx = this.width > 0 && this.height > 0 ? this.getContext('2d') : null;
    if (ctx) { const px = ctx.createImageData(1, 1); px.data.set([7, 11, 13, 255]); ctx.putImageData(px, 0, 0); }
    return toDataURL.apply(this, args);
  };
  const getChannelData = AudioBuffer.prototype.getChannelData;
  const drifted = new WeakSet();
  AudioBuffer.prototype.getChannelData = function (channel) {
    const data = getChannelData.call(this, channel);
    if (!drifted.has(this)) { drifted.add(this); for (let i = 0; i < data.length; i++) data[i] *= 1.001; }
    return data;
  };
})();`;

// ---------------------------------------------------------------------------------------------------------------
// Infrastructure: the real server, a page server, Chromium

async function startVigil(allowedOrigin: string): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-accuracy-'));
  const port = await freePort();
  const env = {
    ...process.env,
    VIGIL_DATA_DIR: dir,
    PORT: String(port),
    VIGIL_LOG_LEVEL: 'warn',
    VIGIL_JS_ALLOWED_ORIGINS: allowedOrigin,
    VIGIL_JS_COLLECT_RPS: '0',
    VIGIL_JS_EVENTS_RPS: '0',
  };
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`vigil exited with ${child.exitCode}`);
    if (i > 600) throw new Error('vigil did not start');
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function startPages(): Promise<{ origin: string; stop(): Promise<void> }> {
  const require = createRequire(import.meta.url);
  const fpjs = readFileSync(join(dirname(require.resolve('@fingerprintjs/fingerprintjs')), 'fp.min.js'));
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages');
    if (url.pathname === '/fp.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(fpjs);
    } else if (url.pathname === '/visit.html') {
      const vigil = url.searchParams.get('vigil') ?? '';
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><html><head><meta charset="utf-8"><script src="${vigil}/js"></script><script src="/fp.min.js"></script></head><body>page</body></html>`,
        );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Page = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['newPage']>>;

/** Both ids from one page: Vigil's (through the real server) and FingerprintJS's (computed in the page). */
async function readIds(page: Page): Promise<Reading> {
  return page.evaluate(async () => {
    const w = globalThis as unknown as {
      Vigil: { setup(): void; get(): Promise<{ handprint_id: string | null; error?: { code: string } }> };
      FingerprintJS: { load(o: { monitoring: boolean }): Promise<{ get(): Promise<{ visitorId: string }> }> };
    };
    w.Vigil.setup();
    const agent = await w.FingerprintJS.load({ monitoring: false });
    const [signals, fp] = await Promise.all([w.Vigil.get(), agent.get()]);
    return { vigil: signals.handprint_id, fpjs: fp.visitorId, ...(signals.error ? { error: signals.error.code } : {}) };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement

interface Visits {
  config: Config;
  first: Reading;
  revisits: Record<Revisit, Reading>;
}

async function measure(browser: Browser, config: Config, pageUrl: string, major: number): Promise<Visits> {
  const current = identity(config.os, major);
  const bumped = identity(config.os, major + 1);
  const next = identity(config.os, major + 2);
  const open = async (options: BrowserContextOptions, scripts: string[]) => {
    const context = await browser.newContext(options);
    for (const s of scripts) await context.addInitScript(s);
    const page = await context.newPage();
    await page.goto(pageUrl);
    return { context, page };
  };
  const once = async (options: BrowserContextOptions, scripts: string[]) => {
    const { context, page } = await open(options, scripts);
    try {
      return await readIds(page);
    } finally {
      await context.close();
    }
  };
  const base = { ...config.options, userAgent: current.userAgent };
  const hw = hardwareScript(config, current.platform);

  // First visit, then storage cleared in the same context (same window, reloaded).
  const { context, page } = await open(base, [hw]);
  const first = await readIds(page);
  await page.evaluate(() => (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear());
  await context.clearCookies();
  await page.reload();
  const storageCleared = await readIds(page);
  await context.close();

  const viewport = config.options.viewport!;
  const resized = config.options.isMobile
    ? { width: viewport.width, height: viewport.height - 56 }
    : { width: viewport.width - 200, height: viewport.height - 100 };
  return {
    config,
    first,
    revisits: {
      storage_cleared: storageCleared,
      fresh_context: await once(base, [hw]),
      window_resized: await once({ ...base, viewport: resized }, [hw]),
      // Browser zoom: Chromium scales devicePixelRatio and shrinks the CSS viewport; the screen stays.
      page_zoomed: await once(
        {
          ...base,
          deviceScaleFactor: (config.options.deviceScaleFactor ?? 1) * 1.1,
          viewport: { width: Math.round(viewport.width / 1.1), height: Math.round(viewport.height / 1.1) },
        },
        [hw],
      ),
      version_bump: await once({ ...config.options, userAgent: bumped.userAgent }, [hardwareScript(config, bumped.platform)]),
      // The next update (major + 2): the profile has already followed the first bump, as it would in real life.
      version_bump_engine_drift: await once({ ...config.options, userAgent: next.userAgent }, [hardwareScript(config, next.platform), ENGINE_DRIFT]),
    },
  };
}

type Method = 'vigil' | 'fpjs';

interface Score {
  stable: Record<Revisit, number>;
  stableAll: number;
  colliding: number;
  distinct: number;
  failed: number;
}

function score(results: Visits[], method: Method): Score {
  const stable = Object.fromEntries(REVISITS.map((r) => [r, 0])) as Record<Revisit, number>;
  let failed = 0;
  for (const v of results) {
    if (!v.first[method]) failed++;
    for (const r of REVISITS) if (v.first[method] && v.revisits[r][method] === v.first[method]) stable[r]++;
  }
  const byId = new Map<string, number>();
  for (const v of results) if (v.first[method]) byId.set(v.first[method]!, (byId.get(v.first[method]!) ?? 0) + 1);
  const colliding = [...byId.values()].filter((n) => n > 1).reduce((a, n) => a + n, 0);
  return { stable, stableAll: Object.values(stable).reduce((a, n) => a + n, 0), colliding, distinct: byId.size, failed };
}

const pct = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(1)} %)`;

function table(results: Visits[], fpjsVersion: string): string {
  const n = results.length;
  const ours = score(results, 'vigil');
  const theirs = score(results, 'fpjs');
  const rows: [string, string, string][] = [
    ...REVISITS.map((r): [string, string, string] => [REVISIT_LABELS[r], pct(ours.stable[r], n), pct(theirs.stable[r], n)]),
    ['stability over all revisits', pct(ours.stableAll, n * REVISITS.length), pct(theirs.stableAll, n * REVISITS.length)],
    ['configurations sharing an id with another (collisions)', pct(ours.colliding, n), pct(theirs.colliding, n)],
    ['distinct ids for distinct configurations', `${ours.distinct}/${n}`, `${theirs.distinct}/${n}`],
    ['failed readings', String(ours.failed), String(theirs.failed)],
  ];
  const head: [string, string, string] = [
    `${n} emulated configurations, ${REVISITS.length} revisits each`,
    'Vigil handprint_id',
    `FingerprintJS ${fpjsVersion} visitorId`,
  ];
  const widths = [0, 1, 2].map((i) => Math.max(head[i]!.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const arg = process.argv.indexOf('--configs');
  const count = arg > 0 ? Number(process.argv[arg + 1]) : 60;
  if (!existsSync(CLI)) throw new Error('server/dist/cli.js is missing: run `pnpm build` first');
  const require = createRequire(import.meta.url);
  const fpjsVersion = (
    JSON.parse(readFileSync(join(dirname(require.resolve('@fingerprintjs/fingerprintjs')), '..', 'package.json'), 'utf8')) as { version: string }
  ).version;

  const pages = await startPages();
  const vigil = await startVigil(pages.origin);
  const browser = await launchChromium();
  try {
    const probe = await browser.newContext();
    const major = Number(
      /Chrome\/(\d+)/.exec(
        await (await probe.newPage()).evaluate(() => (globalThis as unknown as { navigator: { userAgent: string } }).navigator.userAgent),
      )?.[1] ?? 130,
    );
    await probe.close();
    const pageUrl = `${pages.origin}/visit.html?vigil=${encodeURIComponent(vigil.url)}`;
    const results: Visits[] = [];
    const started = Date.now();
    for (const config of configurations(count)) {
      results.push(await measure(browser, config, pageUrl, major));
      process.stderr.write(`\r${results.length}/${count} configurations (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    process.stderr.write('\n');
    const errors = results.flatMap((r) => [r.first, ...Object.values(r.revisits)]).filter((r) => r.error);
    if (errors.length > 0) process.stderr.write(`vigil errors: ${errors.map((e) => e.error).join(', ')}\n`);
    process.stdout.write(`\nHandprint accuracy (Chromium ${major}, the same browser and page for both)\n\n${table(results, fpjsVersion)}\n`);
  } finally {
    await browser.close();
    await vigil.stop();
    await pages.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
