import { architecture } from "./architecture.js";
import { audio } from "./audio.js";
import { canvas } from "./canvas.js";
import { colorGamut } from "./colorGamut.js";
import { deviceMemory } from "./deviceMemory.js";
import { features } from "./features.js";
import { fonts } from "./fonts.js";
import { hardwareConcurrency } from "./hardwareConcurrency.js";
import { intl } from "./intl.js";
import { languages } from "./languages.js";
import { mathQuirks } from "./mathQuirks.js";
import { mediaPreferences } from "./mediaPreferences.js";
import { pixelRatio } from "./pixelRatio.js";
import { platform } from "./platform.js";
import { plugins } from "./plugins.js";
import { screenSource } from "./screen.js";
import { storageSource } from "./storage.js";
import { timezone } from "./timezone.js";
import { touch } from "./touch.js";
import { userAgent } from "./userAgent.js";
import { webgl } from "./webgl.js";
import type { Source } from "./types.js";

/** Every source the library collects. Asynchronous ones come first so their work overlaps the synchronous ones. */
export const defaultSources: readonly Source[] = [
  audio,
  platform,
  canvas,
  webgl,
  fonts,
  screenSource,
  pixelRatio,
  timezone,
  languages,
  hardwareConcurrency,
  deviceMemory,
  userAgent,
  touch,
  colorGamut,
  mathQuirks,
  architecture,
  intl,
  mediaPreferences,
  storageSource,
  plugins,
  features,
];

export type { Component, Components, Source } from "./types.js";
