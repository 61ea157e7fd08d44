import type { Components } from "../sources/types.js";
import { clip } from "../core/clip.js";

/**
 * Automation evidence. Each check is `true` (evidence found), `false` (looked, found none) or `null` (could not
 * look; the reason is in `errors`). None of them alone proves a bot: the server weighs them.
 */
export interface AutomationSignals {
  webdriver: boolean | null;
  headless_ua: boolean | null;
  plugins_missing: boolean | null;
  languages_missing: boolean | null;
  chrome_object_missing: boolean | null;
  zero_outer_size: boolean | null;
  software_renderer: boolean | null;
  navigator_overridden: boolean | null;
  automation_globals: boolean | null;
  permissions_inconsistent: boolean | null;
  ua_platform_mismatch: boolean | null;
  /** Names of the checks that found evidence. */
  evidence: string[];
  errors: Record<string, string>;
}

export interface DeviceSignals {
  version: 1;
  platform: "web";
  automation: AutomationSignals;
}

type Check = (components: Components) => boolean | Promise<boolean>;

const AUTOMATION_GLOBALS = [
  "__webdriver_evaluate",
  "__selenium_evaluate",
  "__webdriver_script_fn",
  "__driver_evaluate",
  "__fxdriver_unwrapped",
  "__selenium_unwrapped",
  "_Selenium_IDE_Recorder",
  "callSelenium",
  "_selenium",
  "callPhantom",
  "_phantom",
  "__nightmare",
  "domAutomation",
  "domAutomationController",
  "__playwright__binding__",
  "__pwInitScripts",
  "Cypress",
  "__puppeteer_evaluation_script__",
];

const OVERRIDABLE = ["webdriver", "hardwareConcurrency", "languages", "userAgent", "platform", "plugins", "deviceMemory"];

const componentValue = (components: Components, name: string): Record<string, unknown> | undefined => {
  const c = components[name];
  return c && "value" in c && typeof c.value === "object" && c.value !== null ? (c.value as Record<string, unknown>) : undefined;
};

const isChromiumUa = () => /Chrome\//.test(navigator.userAgent) && !/Mobile/.test(navigator.userAgent);

const osOf = (text: string): string | null => {
  if (/Win/i.test(text)) return "windows";
  if (/Android/i.test(text)) return "android";
  if (/iPhone|iPad|iPod/i.test(text)) return "ios";
  if (/Mac/i.test(text)) return "mac";
  if (/CrOS/i.test(text)) return "chromeos";
  if (/Linux|X11/i.test(text)) return "linux";
  return null;
};

const CHECKS: Record<Exclude<keyof AutomationSignals, "evidence" | "errors">, Check> = {
  webdriver: () => navigator.webdriver === true,
  headless_ua: () => /Headless|PhantomJS|SlimerJS/i.test(navigator.userAgent),
  plugins_missing: () => isChromiumUa() && (navigator.plugins?.length ?? 0) === 0,
  languages_missing: () => !navigator.language || !navigator.languages || navigator.languages.length === 0,
  chrome_object_missing: () => isChromiumUa() && !/Edg|OPR/.test(navigator.userAgent) && !("chrome" in window),
  zero_outer_size: () => window.outerWidth === 0 && window.outerHeight === 0,
  software_renderer: (components) => {
    const gl = componentValue(components, "webgl");
    const renderer = String(gl?.unmasked_renderer ?? gl?.renderer ?? "");
    return /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Mesa OffScreen/i.test(renderer);
  },
  navigator_overridden: () =>
    OVERRIDABLE.some((prop) => {
      // Real browsers define these getters on Navigator.prototype; stealth tools redefine them on the instance
      // or replace the getter with a non-native function.
      if (Object.getOwnPropertyDescriptor(navigator, prop)) return true;
      const getter = Object.getOwnPropertyDescriptor(Navigator.prototype, prop)?.get;
      return getter !== undefined && !/\[native code\]/.test(Function.prototype.toString.call(getter));
    }),
  automation_globals: () => {
    const w = window as unknown as Record<string, unknown>;
    return (
      AUTOMATION_GLOBALS.some((name) => name in w) ||
      Object.keys(document).some((k) => /^\$?cdc_|^\$wdc_/.test(k)) ||
      document.documentElement.hasAttribute("webdriver")
    );
  },
  permissions_inconsistent: async () => {
    // Old headless Chromium answers "denied" for Notification.permission but "prompt" to the Permissions API.
    if (typeof Notification === "undefined" || !navigator.permissions) return false;
    const status = await navigator.permissions.query({ name: "notifications" as PermissionName });
    return Notification.permission === "denied" && status.state === "prompt";
  },
  ua_platform_mismatch: (components) => {
    const uaOs = osOf(navigator.userAgent);
    const platformOs = osOf(navigator.platform ?? "");
    const hinted = componentValue(components, "platform")?.ua_platform;
    const hintOs = typeof hinted === "string" && hinted ? osOf(hinted.replace("macOS", "Mac")) : null;
    if (!uaOs) return false;
    // iPadOS reports MacIntel; Android reports Linux platforms.
    const compatible = (other: string | null) =>
      other === null || other === uaOs || (uaOs === "ios" && other === "mac") || (uaOs === "android" && other === "linux");
    return !compatible(platformOs) || !compatible(hintOs);
  },
};

/** Runs every check; a failing check records its error and leaves `null`, never breaking the others. */
export async function collectDeviceSignals(components: Components): Promise<DeviceSignals> {
  const values: Record<string, boolean | null> = {};
  const errors: Record<string, string> = {};
  await Promise.all(
    Object.entries(CHECKS).map(async ([name, check]) => {
      try {
        values[name] = await check(components);
      } catch (error) {
        values[name] = null;
        errors[name] = clip(error instanceof Error ? error.message : String(error), 200);
      }
    }),
  );
  const names = Object.keys(CHECKS);
  const automation = {
    ...Object.fromEntries(names.map((name) => [name, values[name] ?? null])),
    evidence: names.filter((name) => values[name] === true),
    errors,
  } as AutomationSignals;
  return { version: 1, platform: "web", automation };
}
