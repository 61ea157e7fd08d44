import { hash64 } from "../hash.js";
import type { Source } from "./types.js";

export interface IntlReading {
  /** How numbers and a fixed date are formatted in the default locale: reflects locale data (ICU) and OS settings. */
  number: string;
  date: string;
  calendar: string | null;
  numbering_system: string | null;
  hour_cycle: string | null;
  hash: string;
}

export const intl: Source<IntlReading> = {
  name: "intl",
  collect() {
    const number = new Intl.NumberFormat().format(1234567.891);
    const date = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long", timeZone: "UTC" }).format(
      new Date(Date.UTC(2020, 11, 31, 23, 59, 59)),
    );
    const options = Intl.DateTimeFormat(undefined, { hour: "numeric" }).resolvedOptions();
    const relative = typeof Intl.RelativeTimeFormat === "function" ? new Intl.RelativeTimeFormat().format(-1, "day") : "";
    return {
      number,
      date,
      calendar: options.calendar ?? null,
      numbering_system: options.numberingSystem ?? null,
      hour_cycle: options.hourCycle ?? null,
      hash: hash64([number, date, relative].join("|")),
    };
  },
};
