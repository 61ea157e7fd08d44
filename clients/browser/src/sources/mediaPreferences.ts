import type { Source } from "./types.js";

export interface MediaPreferencesReading {
  color_scheme: "dark" | "light" | null;
  reduced_motion: boolean;
  contrast: "more" | "less" | "custom" | null;
  forced_colors: boolean;
  inverted_colors: boolean;
}

/** User accessibility and theme settings: people flip these, so the server uses them only as weak evidence. */
export const mediaPreferences: Source<MediaPreferencesReading> = {
  name: "media_preferences",
  collect() {
    const mq = (q: string) => window.matchMedia(q).matches;
    const contrast = (["more", "less", "custom"] as const).find((c) => mq(`(prefers-contrast: ${c})`)) ?? null;
    return {
      color_scheme: mq("(prefers-color-scheme: dark)") ? "dark" : mq("(prefers-color-scheme: light)") ? "light" : null,
      reduced_motion: mq("(prefers-reduced-motion: reduce)"),
      contrast,
      forced_colors: mq("(forced-colors: active)"),
      inverted_colors: mq("(inverted-colors: inverted)"),
    };
  },
};
