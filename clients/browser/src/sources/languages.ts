import type { Source } from "./types.js";

export interface LanguagesReading {
  language: string | null;
  languages: string[];
  /** The locale Intl formats with; differs from navigator.language when the OS and browser disagree. */
  intl_locale: string | null;
}

export const languages: Source<LanguagesReading> = {
  name: "languages",
  collect() {
    const n = navigator;
    let intl: string | null = null;
    try {
      intl = Intl.DateTimeFormat().resolvedOptions().locale;
    } catch {
      intl = null;
    }
    return {
      language: n.language ?? null,
      languages: Array.isArray(n.languages) || n.languages ? Array.from(n.languages) : [],
      intl_locale: intl,
    };
  },
};
